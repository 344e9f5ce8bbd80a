import { randomBytes } from 'node:crypto';
import type { Db } from '@looplane/db';
import type { Role } from '@looplane/shared';
import { generateInvitationCode, hashInvitationCode } from '../services/invitation-code';

/**
 * A pending invitation written directly (as `teams.invite` would), with its code. Addressed to
 * `email`, or to the user `userId`'s email, or to a fresh address; into `teamId`, or into a team
 * of its own (so accepting it changes no other test's team).
 */
export async function createInvitation(db: Db, options: { teamId?: string; email?: string; userId?: string | undefined; role?: Role; expiresAt?: Date } = {}) {
  const tag = randomBytes(4).toString('hex');
  const user = options.userId ? await db.user.findUniqueOrThrow({ where: { id: options.userId }, select: { email: true } }) : null;
  const email = options.email ?? user?.email ?? `invitee-${tag}@example.test`;
  const teamId = options.teamId ?? (await db.team.create({ data: { slug: `inviting-${tag}`, name: `Inviting ${tag}` } })).id;
  const code = generateInvitationCode();
  const row = await db.teamInvitation.create({
    data: {
      teamId,
      email,
      role: options.role ?? 'viewer',
      codeHash: hashInvitationCode(code),
      expiresAt: options.expiresAt ?? new Date(Date.now() + 86_400_000),
    },
  });
  return { id: row.id, teamId, email, code };
}
