import { appendAudit, hashPassword, lockTeamMembership, type Db, type Tx } from '@looplane/db';
import { AppError, type Role } from '@looplane/shared';
import { hashInvitationCode } from './invitation-code';

/** The invitee: a signed-in person (never a token: tokens are team-bound and accept nothing). */
export interface Invitee {
  userId: string;
  email: string;
}

const UNUSABLE = 'No such invitation: the link is wrong, or the invitation expired, was answered or was revoked';

const inviteeSelect = { id: true, teamId: true, email: true, role: true, status: true, expiresAt: true, team: { select: { name: true, slug: true } } } as const;

/** `invitations.mine`: the pending, unexpired invitations addressed to the caller's email. */
export async function listMyInvitations(db: Db, invitee: Invitee) {
  const rows = await db.teamInvitation.findMany({
    where: { email: invitee.email.toLowerCase(), status: 'pending', expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, role: true, expiresAt: true, createdAt: true, invitedById: true, team: { select: { id: true, name: true, slug: true } } },
  });
  const inviterIds = [...new Set(rows.map((r) => r.invitedById).filter((id): id is string => id !== null))];
  const inviters = inviterIds.length ? await db.user.findMany({ where: { id: { in: inviterIds } }, select: { id: true, email: true } }) : [];
  const email = new Map(inviters.map((u) => [u.id, u.email]));
  return rows.map(({ invitedById, ...row }) => ({ ...row, invitedBy: invitedById ? (email.get(invitedById) ?? null) : null }));
}

/** The caller's own pending invitation (another person's is NOT_FOUND, like one that does not exist). */
async function ownPending(tx: Tx, invitee: Invitee, invitationId: string) {
  const row = await tx.teamInvitation.findFirst({ where: { id: invitationId, email: invitee.email.toLowerCase() }, select: inviteeSelect });
  if (!row) throw new AppError('NOT_FOUND', 'No such invitation for you');
  if (row.status !== 'pending') throw new AppError('CONFLICT', `The invitation was already ${row.status}`);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('PRECONDITION_FAILED', 'The invitation expired; ask a team admin to invite you again');
  return row;
}

/** Marks the invitation answered, unless someone (a revocation, the other tab) answered it first. */
async function answer(tx: Tx, invitationId: string, status: 'accepted' | 'declined', userId: string): Promise<void> {
  const { count } = await tx.teamInvitation.updateMany({
    where: { id: invitationId, status: 'pending' },
    data: { status, decidedById: userId, decidedAt: new Date() },
  });
  if (count === 0) throw new AppError('CONFLICT', 'The invitation was answered or revoked a moment ago');
}

/** Makes the invitee a member with the invited role (a member already keeps the role they have). */
async function join(tx: Tx, invitation: { id: string; teamId: string; role: Role }, userId: string) {
  await lockTeamMembership(tx, invitation.teamId);
  const existing = await tx.membership.findUnique({ where: { teamId_userId: { teamId: invitation.teamId, userId } }, select: { role: true } });
  if (!existing) await tx.membership.create({ data: { teamId: invitation.teamId, userId, role: invitation.role } });
  await answer(tx, invitation.id, 'accepted', userId);
  return { role: existing?.role ?? invitation.role, alreadyMember: existing !== null };
}

/** `invitations.accept`: the invitee joins the team with the invited role. */
export async function acceptInvitation(db: Db, invitee: Invitee, invitationId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const invitation = await ownPending(tx, invitee, invitationId);
    const joined = await join(tx, invitation, invitee.userId);
    await appendAudit(tx, {
      teamId: invitation.teamId,
      actor: { type: 'user', userId: invitee.userId },
      ip,
      action: 'invitation.accepted',
      targetType: 'invitation',
      targetId: invitation.id,
      data: { email: invitation.email, role: joined.role, alreadyMember: joined.alreadyMember, userCreated: false },
    });
    return { teamId: invitation.teamId, slug: invitation.team.slug, role: joined.role };
  });
}

/** `invitations.decline`: the invitation ends; nothing else changes. */
export async function declineInvitation(db: Db, invitee: Invitee, invitationId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const invitation = await ownPending(tx, invitee, invitationId);
    await answer(tx, invitation.id, 'declined', invitee.userId);
    await appendAudit(tx, {
      teamId: invitation.teamId,
      actor: { type: 'user', userId: invitee.userId },
      ip,
      action: 'invitation.declined',
      targetType: 'invitation',
      targetId: invitation.id,
      data: { email: invitation.email, role: invitation.role },
    });
    return { invitationId: invitation.id, status: 'declined' as const };
  });
}

/** The pending, unexpired invitation a code belongs to (NOT_FOUND otherwise, whatever the reason). */
async function byCode(db: Db | Tx, code: string) {
  const row = await db.teamInvitation.findUnique({ where: { codeHash: hashInvitationCode(code) }, select: inviteeSelect });
  if (row?.status !== 'pending' || row.expiresAt.getTime() <= Date.now()) throw new AppError('NOT_FOUND', UNUSABLE);
  return row;
}

/** `invitations.preview`: what an invitation link is for (team, role, address), for its holder. */
export async function previewInvitation(db: Db, code: string) {
  const row = await byCode(db, code);
  return { email: row.email, role: row.role, team: row.team, expiresAt: row.expiresAt };
}

/**
 * `invitations.signUp`: a person without an account signs up with the invitation's code: the
 * account is made for the invited address with their password, and they join the team. An
 * address that has an account is refused (it signs in and accepts instead): the code's holder
 * learns that, never the answer to `teams.invite`.
 */
export async function signUpWithInvitation(db: Db, input: { code: string; password: string; name?: string | undefined }, ip: string | null) {
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const invitation = await byCode(tx, input.code);
    const taken = await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
    if (taken) throw new AppError('CONFLICT', `An account already uses ${invitation.email}: sign in with it and accept the invitation there`);
    const user = await tx.user.create({ data: { email: invitation.email, passwordHash, name: input.name ?? null }, select: { id: true } });
    const joined = await join(tx, invitation, user.id);
    await appendAudit(tx, {
      teamId: invitation.teamId,
      actor: { type: 'user', userId: user.id },
      ip,
      action: 'invitation.accepted',
      targetType: 'invitation',
      targetId: invitation.id,
      data: { email: invitation.email, role: joined.role, alreadyMember: false, userCreated: true },
    });
    return { email: invitation.email, teamId: invitation.teamId, slug: invitation.team.slug, role: joined.role };
  });
}
