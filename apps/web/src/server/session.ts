import 'server-only';
import type { NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { env } from '@/env';

const SECURE_COOKIE = '__Secure-next-auth.session-token';

/** The subset of a cookie store we read: both `NextRequest.cookies` and `await cookies()` fit. */
export interface CookieReader {
  getAll(): Array<{ name: string; value: string }>;
}

/**
 * The signed-in user's id from the next-auth JWT cookie, or null. Only the id is trusted from the
 * token: team roles are always read from the database per request.
 *
 * Only cookies are handed to `getToken`: its fallback of reading a JWT from `Authorization: Bearer`
 * must not apply, because that header carries API tokens here.
 */
export async function sessionUserId(cookies: CookieReader): Promise<string | null> {
  // next-auth names the cookie `__Secure-…` when it served the sign-in over https.
  const secureCookie = cookies.getAll().some((c) => c.name.startsWith(SECURE_COOKIE));
  const req = { cookies, headers: new Headers() } as unknown as NextRequest;
  const token = await getToken({ req, secret: env().NEXTAUTH_SECRET, secureCookie });
  return typeof token?.sub === 'string' ? token.sub : null;
}
