import { appendAudit, type Db } from '@looplane/db';
import { authenticateCredentials, type AuthenticatedUser } from './credentials';
import type { AdmittedAttempt, SignInLimiter } from './sign-in-limiter';

/** How an email + password sign-in ended. */
export type SignInOutcome =
  | { kind: 'signed-in'; user: AuthenticatedUser }
  | { kind: 'wrong-credentials' }
  /** A lockout runs (started by this attempt, or before it): try again after `retryAfterSeconds`. */
  | { kind: 'locked-out'; retryAfterSeconds: number };

const SIGN_IN_ACTOR = { type: 'system', name: 'sign-in' } as const;

/**
 * Records a lockout that just started in the audit log of every team of the account that was
 * tried, so their admins see it. A lockout of an email that is no account's leaves no row (there
 * is no team to tell); the web logs it.
 */
async function auditLockout(db: Db, email: string, ip: string | null, attempt: AdmittedAttempt): Promise<number> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, memberships: { select: { teamId: true }, orderBy: { teamId: 'asc' } } } });
  if (!user || user.memberships.length === 0) return 0;
  const data = { scopes: attempt.locksOut, failures: attempt.failures, lockedForSeconds: Math.ceil(attempt.lockMsIfFails / 1000) };
  await db.$transaction(async (tx) => {
    for (const { teamId } of user.memberships) {
      await appendAudit(tx, { teamId, actor: SIGN_IN_ACTOR, ip, action: 'auth.locked_out', targetType: 'user', targetId: user.id, data });
    }
  });
  return user.memberships.length;
}

/**
 * An email + password sign-in under the limiter: refused outright while the account or the
 * address is locked out (the right password too, and without spending a password check on it);
 * otherwise the password is checked, and a failure that crosses a threshold starts a lockout,
 * which is audited and answered as one.
 */
export async function signInWithPassword(
  deps: { db: Db; limiter: SignInLimiter; onLockout?: (info: { email: string; ip: string | null; scopes: string[]; auditedTeams: number }) => void },
  input: { email: string; password: string; ip: string | null },
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  const attempt = await deps.limiter.begin({ email, ip: input.ip });
  if (!attempt.admitted) return { kind: 'locked-out', retryAfterSeconds: Math.max(1, Math.ceil(attempt.retryAfterMs / 1000)) };
  const user = input.password ? await authenticateCredentials(deps.db, email, input.password) : null;
  if (user) {
    await deps.limiter.succeeded(attempt);
    return { kind: 'signed-in', user };
  }
  if (attempt.locksOut.length > 0) {
    const auditedTeams = await auditLockout(deps.db, email, input.ip, attempt);
    deps.onLockout?.({ email, ip: input.ip, scopes: attempt.locksOut, auditedTeams });
  }
  if (attempt.lockMsIfFails > 0) return { kind: 'locked-out', retryAfterSeconds: Math.max(1, Math.ceil(attempt.lockMsIfFails / 1000)) };
  return { kind: 'wrong-credentials' };
}
