import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { SignInLimiter } from '@looplane/api';
import { env } from '@/env';
import { redis } from './redis';

const holder = globalThis as typeof globalThis & { __looplaneSignInLimiter?: SignInLimiter };

/** The process-wide sign-in limiter, on the web's Redis (shared by every web process), with the LOOPLANE_SIGNIN_* thresholds. */
export function signInLimiter(): SignInLimiter {
  if (!holder.__looplaneSignInLimiter) {
    const e = env();
    holder.__looplaneSignInLimiter = new SignInLimiter(redis(), {
      accountFailures: e.LOOPLANE_SIGNIN_ACCOUNT_FAILURES,
      addressFailures: e.LOOPLANE_SIGNIN_ADDRESS_FAILURES,
      lockoutMs: e.LOOPLANE_SIGNIN_LOCKOUT_SECONDS * 1000,
      maxLockoutMs: e.LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS * 1000,
      windowMs: e.LOOPLANE_SIGNIN_WINDOW_SECONDS * 1000,
    });
  }
  return holder.__looplaneSignInLimiter;
}

/** One credentials sign-in request, as next-auth's `authorize` sees it: where it came from, and whether a lockout refused it. */
export interface SignInRequest {
  ip: string | null;
  lockedOut: { retryAfterSeconds: number } | null;
}

// next-auth calls `authorize` with the credentials only; the route handler runs it inside this
// store so that it knows the client's address and can tell the handler to answer 429.
const signInRequests = new AsyncLocalStorage<SignInRequest>();

/** Runs next-auth's handling of a credentials sign-in with the client's address at hand. */
export async function withSignInRequest<T>(ip: string | null, run: () => Promise<T>): Promise<{ result: T; request: SignInRequest }> {
  const request: SignInRequest = { ip, lockedOut: null };
  const result = await signInRequests.run(request, run);
  return { result, request };
}

/** The credentials sign-in being handled, inside {@link withSignInRequest}. */
export function currentSignInRequest(): SignInRequest | undefined {
  return signInRequests.getStore();
}
