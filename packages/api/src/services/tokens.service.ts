import {
  appendAudit,
  displayPrefix,
  generateApiToken,
  hashApiToken,
  lockTokenAsParent,
  lockTokenForRevoke,
  revokeTokenDescendants,
  type AuditActor,
  type Db,
} from '@looplane/db';
import { AppError, ROLES, roleAtLeast, type Role } from '@looplane/shared';

const DAY_MS = 86_400_000;

export interface CreateTokenInput {
  teamId: string;
  name: string;
  role: Role;
  expiresInDays?: number | undefined;
}

/** The earlier of two expiries (null: never). */
function earlier(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a < b ? a : b;
}

/**
 * Issues a team-scoped API token. Only its hash is stored; the secret is returned this once.
 * The token's role may not exceed the creator's role in the team. A token made with a token
 * (`parentTokenId`) never outlives it: it expires no later than its parent, and revoking the
 * parent revokes it too ({@link revokeToken}).
 */
export async function createToken(
  db: Db,
  actor: AuditActor & { userId: string },
  callerRole: Role,
  input: CreateTokenInput,
  ip: string | null,
  parentTokenId: string | null = null,
) {
  if (!roleAtLeast(callerRole, input.role)) {
    throw new AppError('FORBIDDEN', `You cannot create a token with the ${input.role} role; your role is ${callerRole}`);
  }
  const secret = generateApiToken();
  const requested = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  return db.$transaction(async (tx) => {
    // The parent stays locked until this commits: a revocation of it (or of an ancestor) either
    // is seen here or waits for this child and revokes it too.
    const parent = parentTokenId ? await lockTokenAsParent(tx, parentTokenId) : null;
    if (parentTokenId && (!parent || parent.revoked)) throw new AppError('UNAUTHORIZED', 'The token making this request was revoked');
    if (parent?.expired) throw new AppError('UNAUTHORIZED', 'The token making this request has expired');
    const expiresAt = earlier(requested, parent?.expiresAtMs != null ? new Date(parent.expiresAtMs) : null);
    const token = await tx.apiToken.create({
      data: {
        teamId: input.teamId,
        createdById: actor.userId,
        name: input.name,
        role: input.role,
        tokenHash: hashApiToken(secret),
        prefix: displayPrefix(secret),
        expiresAt,
        parentId: parentTokenId,
      },
    });
    await appendAudit(tx, {
      teamId: input.teamId,
      actor,
      ip,
      action: 'token.created',
      targetType: 'token',
      targetId: token.id,
      data: { name: input.name, role: input.role, expiresAt: expiresAt?.toISOString() ?? null, parentTokenId },
    });
    return { id: token.id, token: secret, prefix: token.prefix, role: token.role, expiresAt: token.expiresAt };
  });
}

/** The roles a caller may see and revoke tokens of: its own and below (for a token, the token's role, not its creator's). */
function rolesUpTo(callerRole: Role): Role[] {
  return ROLES.filter((role) => roleAtLeast(callerRole, role));
}

/**
 * Admins see every token of the team; others see the tokens they created, of their own role or
 * below. `callerRole` is the principal's role: an operator token made by an admin acts as an
 * operator and never sees (or revokes) that admin's admin tokens.
 */
export async function listTokens(db: Db, teamId: string, userId: string, callerRole: Role) {
  const rows = await db.apiToken.findMany({
    where: { teamId, ...(callerRole === 'admin' ? {} : { createdById: userId, role: { in: rolesUpTo(callerRole) } }) },
    include: { createdBy: { select: { id: true, email: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 500,
  });
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    role: t.role,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    createdBy: t.createdBy,
  }));
}

/** Revokes a token at once (the next request with it gets 401). Own tokens, or any as admin. */
export async function revokeToken(db: Db, actor: AuditActor & { userId: string }, callerRole: Role, teamId: string, tokenId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    // Locked first, so every child being made with it has committed (and is revoked below) or
    // waits for this revocation and is refused.
    const token = (await lockTokenForRevoke(tx, teamId, tokenId)) ? await tx.apiToken.findUnique({ where: { id: tokenId } }) : null;
    if (!token) throw new AppError('NOT_FOUND', 'No such token in this team');
    if (token.createdById !== actor.userId && callerRole !== 'admin') {
      throw new AppError('FORBIDDEN', 'Only admins can revoke tokens created by someone else');
    }
    if (!roleAtLeast(callerRole, token.role)) {
      throw new AppError('FORBIDDEN', `You cannot revoke a token with the ${token.role} role; your role is ${callerRole}`);
    }
    if (token.revokedAt) throw new AppError('CONFLICT', 'That token is already revoked');
    const revokedAt = new Date();
    await tx.apiToken.update({ where: { id: tokenId }, data: { revokedAt, revokedById: actor.userId } });
    // Every token made with it (and with those, down the line) dies with it.
    const descendants = await revokeTokenDescendants(tx, tokenId, revokedAt, actor.userId);
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'token.revoked',
      targetType: 'token',
      targetId: tokenId,
      data: { name: token.name, alsoRevoked: descendants },
    });
    return { id: tokenId, revokedAt };
  });
}
