import type { Db, Tx } from '@looplane/db';
import type { SessionClaims } from './principal';

/**
 * Server-side session versions. A session cookie is a signed JWT that lives for days, so it cannot
 * be taken back by deleting it from the browser: it names the user's `sessionVersion` at sign-in,
 * and `resolvePrincipal` accepts it only while that is still the current one. Moving the
 * version on ends every session of the user at once (on every device): the price of keeping no
 * per-session rows.
 */

/** The claims a new session of `userId` carries, or null when there is no such user. */
export async function sessionClaimsFor(db: Db, userId: string): Promise<SessionClaims | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, sessionVersion: true } });
  return user ? { userId: user.id, sessionVersion: user.sessionVersion } : null;
}

/**
 * Sign-out: ends the user's sessions, if the signing-out cookie is still a current one (an old
 * cookie replayed to the sign-out URL ends nothing). Returns whether sessions were ended.
 */
export async function endSessionsOnSignOut(db: Db, claims: SessionClaims): Promise<boolean> {
  const { count } = await db.user.updateMany({
    where: { id: claims.userId, sessionVersion: claims.sessionVersion },
    data: { sessionVersion: { increment: 1 } },
  });
  return count === 1;
}

/** Ends every session of `userId` (a password change, removal from a team), inside the caller's transaction. */
export async function endAllSessions(tx: Tx, userId: string): Promise<void> {
  await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
}
