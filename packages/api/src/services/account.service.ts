import { appendAudit, hashPassword, verifyPassword, type AuditActor, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { endAllSessions } from '../auth/session-version';

/**
 * Changes a person's own password after checking the current one, and ends every session they
 * have (this one included: they sign in again with the new password). One audit row per team they
 * belong to, since audit chains are per team; the password itself is never recorded.
 */
export async function changePassword(
  db: Db,
  actor: AuditActor & { type: 'user' },
  input: { currentPassword: string; newPassword: string },
  ip: string | null,
): Promise<{ sessionsEnded: true }> {
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { passwordHash: true } });
  if (!user?.passwordHash) throw new AppError('PRECONDITION_FAILED', 'This account signs in with SSO only and has no password to change');
  const currentHash = user.passwordHash;
  if (!(await verifyPassword(input.currentPassword, currentHash))) throw new AppError('FORBIDDEN', 'The current password is wrong');
  if (input.newPassword === input.currentPassword) throw new AppError('BAD_REQUEST', 'The new password must differ from the current one');
  const passwordHash = await hashPassword(input.newPassword);
  await db.$transaction(async (tx) => {
    // Compare-and-set on the hash just checked: of two concurrent changes, only one applies.
    const { count } = await tx.user.updateMany({ where: { id: actor.userId, passwordHash: currentHash }, data: { passwordHash } });
    if (count !== 1) throw new AppError('CONFLICT', 'The password was changed meanwhile; sign in again');
    await endAllSessions(tx, actor.userId);
    const memberships = await tx.membership.findMany({ where: { userId: actor.userId }, select: { teamId: true }, orderBy: { teamId: 'asc' } });
    for (const { teamId } of memberships) {
      await appendAudit(tx, {
        teamId,
        actor,
        ip,
        action: 'account.password_changed',
        targetType: 'user',
        targetId: actor.userId,
        data: { sessionsEnded: true },
      });
    }
  });
  return { sessionsEnded: true };
}
