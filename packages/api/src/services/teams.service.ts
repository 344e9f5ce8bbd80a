import { appendAudit, lockTeamMembership, type AuditActor, type Db, type Tx } from '@looplane/db';
import { AppError, type Role } from '@looplane/shared';
import { endAllSessions } from '../auth/session-version';

export interface TeamSummary {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

/** The teams a user belongs to, with the role they hold in each. */
export async function listUserTeams(db: Db, userId: string): Promise<TeamSummary[]> {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { team: true },
    orderBy: { team: { name: 'asc' } },
  });
  return memberships.map((m) => ({ id: m.team.id, slug: m.team.slug, name: m.team.name, role: m.role }));
}

/** Creates a team with its creator as the only admin. */
export async function createTeam(db: Db, actor: AuditActor & { type: 'user' }, input: { name: string; slug: string }) {
  return db.$transaction(async (tx) => {
    const taken = await tx.team.findUnique({ where: { slug: input.slug } });
    if (taken) throw new AppError('CONFLICT', `The team slug "${input.slug}" is taken`);
    const team = await tx.team.create({ data: { name: input.name, slug: input.slug } });
    await tx.membership.create({ data: { teamId: team.id, userId: actor.userId, role: 'admin' } });
    await appendAudit(tx, { teamId: team.id, actor, action: 'team.created', targetType: 'team', targetId: team.id, data: input });
    return { id: team.id, slug: team.slug };
  });
}

export async function listMembers(db: Db, teamId: string) {
  const rows = await db.membership.findMany({
    where: { teamId },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }],
  });
  return rows.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, joinedAt: m.createdAt }));
}

/** Refuses a change that would leave the team with no admin. */
async function assertAdminRemains(tx: Tx, teamId: string, userId: string): Promise<void> {
  const otherAdmins = await tx.membership.count({ where: { teamId, role: 'admin', userId: { not: userId } } });
  if (otherAdmins === 0) throw new AppError('PRECONDITION_FAILED', 'A team must keep at least one admin');
}

export async function setMemberRole(db: Db, actor: AuditActor, teamId: string, userId: string, role: Role, ip: string | null) {
  return db.$transaction(async (tx) => {
    await lockTeamMembership(tx, teamId);
    const membership = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
    if (!membership) throw new AppError('NOT_FOUND', 'That user is not a member of this team');
    if (membership.role === role) return { userId, role };
    if (membership.role === 'admin') await assertAdminRemains(tx, teamId, userId);
    await tx.membership.update({ where: { id: membership.id }, data: { role } });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'member.role_changed',
      targetType: 'user',
      targetId: userId,
      data: { from: membership.role, to: role },
    });
    return { userId, role };
  });
}

/** Removes a member and revokes the tokens they hold in this team. */
export async function removeMember(db: Db, actor: AuditActor, teamId: string, userId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    await lockTeamMembership(tx, teamId);
    const membership = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
    if (!membership) throw new AppError('NOT_FOUND', 'That user is not a member of this team');
    if (membership.role === 'admin') await assertAdminRemains(tx, teamId, userId);
    await tx.membership.delete({ where: { id: membership.id } });
    // Their open dashboard sessions end too, so no page keeps acting on what they saw of the team.
    await endAllSessions(tx, userId);
    const revoked = await tx.apiToken.updateMany({
      where: { teamId, createdById: userId, revokedAt: null },
      data: { revokedAt: new Date(), revokedById: actor.type === 'system' ? null : actor.userId },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'member.removed',
      targetType: 'user',
      targetId: userId,
      data: { role: membership.role, tokensRevoked: revoked.count },
    });
    return { userId, tokensRevoked: revoked.count };
  });
}
