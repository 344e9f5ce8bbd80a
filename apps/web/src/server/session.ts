import 'server-only';
import type { SessionClaims } from '@looplane/api';
import type { NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { env } from '@/env';

const SECURE_COOKIE = '__Secure-next-auth.session-token';

/** The subset of a cookie store we read: both `NextRequest.cookies` and `await cookies()` fit. */
export interface CookieReader {
  getAll(): Array<{ name: string; value: string }>;
}

/**
 * The claims of the next-auth JWT cookie (user id and session version), or null. Only these are
 * trusted from the token: the API accepts them only while the version is the user's current one,
 * and team roles are always read from the database per request. A cookie from before session
 * versions (no `sv` claim) counts as signed out.
 *
 * Only cookies are handed to `getToken`: its fallback of reading a JWT from `Authorization: Bearer`
 * must not apply, because that header carries API tokens here.
 */
export async function sessionClaims(cookies: CookieReader): Promise<SessionClaims | null> {
  // next-auth names the cookie `__Secure-…` when it served the sign-in over https.
  const secureCookie = cookies.getAll().some((c) => c.name.startsWith(SECURE_COOKIE));
  const req = { cookies, headers: new Headers() } as unknown as NextRequest;
  const token = await getToken({ req, secret: env().NEXTAUTH_SECRET, secureCookie });
  if (typeof token?.sub !== 'string' || !Number.isSafeInteger(token.sv)) return null;
  return { userId: token.sub, sessionVersion: token.sv as number };
}
