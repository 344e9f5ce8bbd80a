import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { env } from '@/env';
import { authOptions } from '@/server/auth';
import { clientIp } from '@/server/client-ip';
import { withSignInRequest } from '@/server/sign-in-limit';

interface RouteContext {
  params: Promise<{ nextauth: string[] }>;
}

/** `error` code the sign-in form shows as "too many failed sign-ins". */
const LOCKED_OUT = 'TooManyAttempts';

/**
 * next-auth, with one addition: a credentials sign-in (`POST /api/auth/callback/credentials`) is
 * handled with the client's address at hand for the sign-in limit, and one refused by a lockout
 * answers 429 with `Retry-After`. The body keeps next-auth's shape (`{ url }` with an `error`
 * code), so its client reports the error like any other.
 */
async function handler(req: NextRequest, context: RouteContext): Promise<Response> {
  // Options are built on the first request: they need the validated environment.
  const nextAuth = NextAuth(authOptions());
  const action = (await context.params).nextauth.join('/');
  if (req.method !== 'POST' || action !== 'callback/credentials') return nextAuth(req, context);

  const { result, request } = await withSignInRequest(clientIp(req.headers), () => nextAuth(req, context) as Promise<Response>);
  if (!request.lockedOut) return result;
  const seconds = request.lockedOut.retryAfterSeconds;
  const url = new URL('/signin', env().NEXTAUTH_URL ?? req.nextUrl.origin);
  url.searchParams.set('error', LOCKED_OUT);
  const body = { url: url.toString(), message: `Too many failed sign-ins: try again in ${seconds} s` };
  return Response.json(body, { status: 429, headers: { 'retry-after': String(seconds), 'cache-control': 'no-store' } });
}

export { handler as GET, handler as POST };
