import { hashApiToken, type Db } from '@looplane/db';
import { minRole, type Role } from '@looplane/shared';
import { tokenLookup } from './token-lookup';

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
      /**
       * The token's role in its team when this request was authenticated: its own role capped by
       * its creator's membership, read in the same statement as the token; null once the creator
       * left the team. A principal lives for one request, so a role change applies to the next one.
       */
      teamRole: Role | null;
    };

/**
 * What a verified session cookie (next-auth JWT) says: who signed in, and the user's session
 * version at that moment. The cookie counts only while that version is still the user's current
 * one: sign-out, a password change and removal from a team move it on (`session-version.ts`).
 */
export interface SessionClaims {
  userId: string;
  sessionVersion: number;
}

export interface Credentials {
  /** The raw `Authorization` header, if any. */
  authorization: string | null;
  /** The claims of a verified session cookie, if any. */
  session: SessionClaims | null;
}

/**
 * Resolves the caller. An `Authorization` header, when present, wins over the session and must
 * be a valid bearer token: a bad one means "not signed in", never a fallback to the cookie.
 */
export async function resolvePrincipal(db: Db, credentials: Credentials): Promise<Principal | null> {
  if (credentials.authorization !== null && credentials.authorization.trim() !== '') {
    return resolveBearer(db, credentials.authorization);
  }
  const session = credentials.session;
  if (!session) return null;
  const user = await db.user.findUnique({ where: { id: session.userId } });
  // A cookie from before the user's last sign-out, password change or removal is signed out.
  if (!user || user.disabledAt || user.sessionVersion !== session.sessionVersion) return null;
  return { kind: 'user', userId: user.id, email: user.email, name: user.name };
}

async function resolveBearer(db: Db, header: string): Promise<Principal | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  const token = match?.[1];
  // Issued tokens start with `llp_`; a bootstrap token may be any value its operator chose.
  if (!token || token.length > 200) return null;
  // One statement (token, creator, membership), shared with concurrent requests but never older than this request.
  const row = await tokenLookup(db).find(hashApiToken(token));
  if (!row || row.revoked || (row.expiresAtMs !== null && row.expiresAtMs <= Date.now()) || row.userDisabled) return null;
  return {
    kind: 'token',
    userId: row.createdById,
    email: row.email,
    name: row.name,
    tokenId: row.id,
    teamId: row.teamId,
    tokenRole: row.tokenRole,
    teamRole: row.memberRole === null ? null : minRole(row.tokenRole, row.memberRole),
  };
}

/**
 * The caller's role in a team, read from memberships on every request so a role change applies
 * at once. A token's role is capped by its creator's current role and only valid in its own team;
 * for a token that membership was read with the token itself (no further round trip).
 */
export async function resolveTeamRole(db: Db, principal: Principal, teamId: string): Promise<Role | null> {
  if (principal.kind === 'token') return principal.teamId === teamId ? principal.teamRole : null;
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId: principal.userId } },
    select: { role: true },
  });
  if (!membership) return null;
  return membership.role;
}
