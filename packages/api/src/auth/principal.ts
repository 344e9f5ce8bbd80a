import { hashApiToken, type Db } from '@looplane/db';
import { minRole, type Role } from '@looplane/shared';

/** Who is calling. A token principal acts for its creator, inside one team only. */
export type Principal =
  | { kind: 'user'; userId: string; email: string; name: string | null }
  | {
      kind: 'token';
      userId: string;
      email: string;
      name: string | null;
      tokenId: string;
      teamId: string;
      tokenRole: Role;
    };

export interface Credentials {
  /** The raw `Authorization` header, if any. */
  authorization: string | null;
  /** The user id from a verified session (next-auth JWT), if any. */
  sessionUserId: string | null;
}

// lastUsedAt is bookkeeping for the tokens page; write it at most once a minute per token.
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves the caller. An `Authorization` header, when present, wins over the session and must
 * be a valid bearer token: a bad one means "not signed in", never a fallback to the cookie.
 */
export async function resolvePrincipal(db: Db, credentials: Credentials): Promise<Principal | null> {
  if (credentials.authorization !== null && credentials.authorization.trim() !== '') {
    return resolveBearer(db, credentials.authorization);
  }
  if (!credentials.sessionUserId) return null;
  const user = await db.user.findUnique({ where: { id: credentials.sessionUserId } });
  if (!user || user.disabledAt) return null;
  return { kind: 'user', userId: user.id, email: user.email, name: user.name };
}

async function resolveBearer(db: Db, header: string): Promise<Principal | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  const token = match?.[1];
  // Issued tokens start with `llp_`; a bootstrap token may be any value its operator chose.
  if (!token || token.length > 200) return null;
  const now = new Date();
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(token) },
    include: { createdBy: true },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || row.createdBy.disabledAt) return null;
  // Checked here first so a token in steady use costs no write (the conditional update stays the race guard).
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    await db.apiToken.updateMany({
      where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] },
      data: { lastUsedAt: now },
    });
  }
  return {
    kind: 'token',
    userId: row.createdById,
    email: row.createdBy.email,
    name: row.createdBy.name,
    tokenId: row.id,
    teamId: row.teamId,
    tokenRole: row.role,
  };
}

/**
 * The caller's role in a team, read from memberships on every request so a role change applies
 * at once. A token's role is capped by its creator's current role and only valid in its own team.
 */
export async function resolveTeamRole(db: Db, principal: Principal, teamId: string): Promise<Role | null> {
  if (principal.kind === 'token' && principal.teamId !== teamId) return null;
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId: principal.userId } },
    select: { role: true },
  });
  if (!membership) return null;
  return principal.kind === 'token' ? minRole(principal.tokenRole, membership.role) : membership.role;
}
