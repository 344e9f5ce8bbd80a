import { appendAudit, lockTeamMembership, type AuditActor, type Db } from '@looplane/db';
import { AppError, type Role } from '@looplane/shared';
import { generateInvitationCode, hashInvitationCode, INVITATION_TTL_DAYS, invitationPath, invitationStatus } from './invitation-code';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How many of a team's invitations its admins see (newest first). */
const LIST_LIMIT = 200;

type Actor = AuditActor & { userId: string };

/**
 * `teams.invite`: invites an email to the team with a role. Nothing about accounts is read, so
 * the answer has the same shape and status whether or not the address has an account (and an
 * address without one can accept after signing up with the code). The code is in the answer
 * once; only its hash is kept. A pending invitation of the same address is replaced (its code
 * stops working). Refused only for a current member of the team, which its admins see anyway.
 */
export async function inviteMember(db: Db, actor: Actor, teamId: string, input: { email: string; role: Role }, ip: string | null) {
  const code = generateInvitationCode();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);
  const invitation = await db.$transaction(async (tx) => {
    await lockTeamMembership(tx, teamId);
    const member = await tx.membership.findFirst({ where: { teamId, user: { email: input.email } }, select: { id: true } });
    if (member) throw new AppError('CONFLICT', `${input.email} is already a member of this team`);
    const replaced = await tx.teamInvitation.findMany({ where: { teamId, email: input.email, status: 'pending' }, select: { id: true } });
    if (replaced.length > 0) {
      await tx.teamInvitation.updateMany({
        where: { id: { in: replaced.map((r) => r.id) }, status: 'pending' },
        data: { status: 'revoked', decidedById: actor.userId, decidedAt: new Date() },
      });
    }
    const row = await tx.teamInvitation.create({
      data: { teamId, email: input.email, role: input.role, codeHash: hashInvitationCode(code), invitedById: actor.userId, expiresAt },
      select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'invitation.created',
      targetType: 'invitation',
      targetId: row.id,
      data: { email: input.email, role: input.role, expiresAt: expiresAt.toISOString(), ...(replaced.length ? { replaced: replaced.map((r) => r.id) } : {}) },
    });
    return row;
  });
  return { invitation: { ...invitation, status: 'pending' as const }, code, path: invitationPath(code) };
}

/** `teams.invitations`: the team's invitations, newest first, with who invited and who decided. */
export async function listInvitations(db: Db, teamId: string) {
  const rows = await db.teamInvitation.findMany({
    where: { teamId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LIST_LIMIT,
    select: { id: true, email: true, role: true, status: true, expiresAt: true, createdAt: true, decidedAt: true, invitedById: true, decidedById: true },
  });
  const ids = [...new Set(rows.flatMap((r) => [r.invitedById, r.decidedById]).filter((id): id is string => id !== null))];
  const users = ids.length ? await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } }) : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  const now = new Date();
  return rows.map(({ invitedById, decidedById, ...row }) => ({
    ...row,
    status: invitationStatus(row, now),
    invitedBy: invitedById ? (email.get(invitedById) ?? null) : null,
    decidedBy: decidedById ? (email.get(decidedById) ?? null) : null,
  }));
}

/** `teams.revokeInvitation`: a pending invitation (expired or not) stops being acceptable. */
export async function revokeInvitation(db: Db, actor: Actor, teamId: string, invitationId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const row = await tx.teamInvitation.findFirst({ where: { id: invitationId, teamId }, select: { id: true, status: true, email: true, role: true } });
    if (!row) throw new AppError('NOT_FOUND', 'No such invitation in this team');
    if (row.status !== 'pending') throw new AppError('CONFLICT', `The invitation was already ${row.status}`);
    const { count } = await tx.teamInvitation.updateMany({
      where: { id: row.id, status: 'pending' },
      data: { status: 'revoked', decidedById: actor.userId, decidedAt: new Date() },
    });
    if (count === 0) throw new AppError('CONFLICT', 'The invitation was answered a moment ago');
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: row.id,
      data: { email: row.email, role: row.role },
    });
    return { invitationId: row.id, status: 'revoked' as const };
  });
}
