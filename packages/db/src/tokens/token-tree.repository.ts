import { z } from 'zod';
import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

/**
 * Tokens made with a token form a tree (`ApiToken.parentId`). Creating a child and revoking an
 * ancestor serialise on row locks, so no child can be born under a parent that is being revoked
 * and outlive it:
 *
 * - a creator holds its parent's row `FOR SHARE` from its check until it commits (creators under
 *   one parent do not wait for each other);
 * - a revocation takes each token of the tree `FOR UPDATE`, level by level from the root, which
 *   waits for every creator still holding that token. When the lock is granted those children are
 *   committed, so the next level's statement (a fresh snapshot) sees them; a creator that comes
 *   later waits for the revocation to commit and then finds its parent revoked.
 *
 * A single recursive statement cannot give this: its snapshot is taken before it waits, so it
 * misses the children committed while it waited.
 */

/** A parent's state as its child's creator sees it under the lock. */
interface LockedParent {
  revoked: boolean;
  /** Epoch milliseconds (timestamps are stored as UTC without a zone); null: never expires. */
  expiresAtMs: number | null;
  /** Whether it has expired, by the database's clock. */
  expired: boolean;
}

const lockedParentSchema = z.object({ revoked: z.boolean(), expiresAtMs: z.number().nullable(), expired: z.boolean() });

const LOCK_PARENT_SQL = namedQuery({
  name: 'looplane_token_lock_parent',
  params: { token_id: param.text },
  text: `
SELECT "revokedAt" IS NOT NULL AS revoked,
       (extract(epoch FROM "expiresAt") * 1000)::float8 AS "expiresAtMs",
       COALESCE("expiresAt" <= (now() AT TIME ZONE 'UTC'), false) AS expired
FROM "ApiToken" WHERE id = :token_id
FOR SHARE`,
});

/**
 * Locks a token that is about to get a child (`FOR SHARE`, until the caller's transaction ends)
 * and reads it after the lock: a revocation of it or of any ancestor either committed before (and
 * is seen here) or waits for the child to commit (and revokes it too). Null: no such token.
 */
export async function lockTokenAsParent(tx: Tx, tokenId: string): Promise<LockedParent | null> {
  const q = LOCK_PARENT_SQL.bind({ token_id: tokenId });
  const rows = await tx.$queryRawUnsafe<unknown[]>(q.text, ...q.values);
  return rows.length === 0 ? null : lockedParentSchema.parse(rows[0]);
}

const LOCK_FOR_REVOKE_SQL = namedQuery({
  name: 'looplane_token_lock_for_revoke',
  params: { token_id: param.text, team_id: param.text },
  text: 'SELECT id FROM "ApiToken" WHERE id = :token_id AND "teamId" = :team_id FOR UPDATE',
});

/**
 * Locks a token of the team that is about to be revoked (`FOR UPDATE`, until the caller's
 * transaction ends): waits for the creators of its children in flight, and makes later ones wait.
 * Read the token after this. False: no such token in the team.
 */
export async function lockTokenForRevoke(tx: Tx, teamId: string, tokenId: string): Promise<boolean> {
  const q = LOCK_FOR_REVOKE_SQL.bind({ token_id: tokenId, team_id: teamId });
  return (await tx.$queryRawUnsafe<unknown[]>(q.text, ...q.values)).length > 0;
}

const idRows = z.array(z.object({ id: z.string() }));

const LOCK_CHILDREN_SQL = namedQuery({
  name: 'looplane_token_lock_children',
  params: { parent_ids: param.jsonb },
  text: `
SELECT id FROM "ApiToken"
WHERE "parentId" IN (SELECT jsonb_array_elements_text(:parent_ids))
ORDER BY id
FOR UPDATE`,
});

const REVOKE_SQL = namedQuery({
  name: 'looplane_token_revoke_many',
  params: { ids: param.jsonb, revoked_at_ms: param.bigint, revoked_by: param.text },
  text: `
UPDATE "ApiToken"
SET "revokedAt" = to_timestamp(:revoked_at_ms / 1000.0) AT TIME ZONE 'UTC', "revokedById" = :revoked_by
WHERE id IN (SELECT jsonb_array_elements_text(:ids)) AND "revokedAt" IS NULL
RETURNING id`,
});

/**
 * Revokes every descendant of a token locked with {@link lockTokenForRevoke}, in the caller's
 * transaction, and returns the ids it revoked (those revoked before are left as they were, but
 * their children are still visited). Each level is locked before it is revoked, so a child being
 * created under it is waited for and then revoked with it; children are locked in id order, so
 * two revocations of overlapping trees take their locks in the same order.
 */
export async function revokeTokenDescendants(tx: Tx, tokenId: string, revokedAt: Date, revokedById: string): Promise<string[]> {
  const revoked: string[] = [];
  const seen = new Set([tokenId]);
  let level = [tokenId];
  while (level.length > 0) {
    const lock = LOCK_CHILDREN_SQL.bind({ parent_ids: JSON.stringify(level) });
    const children = idRows
      .parse(await tx.$queryRawUnsafe<unknown[]>(lock.text, ...lock.values))
      .map((row) => row.id)
      .filter((id) => !seen.has(id));
    if (children.length === 0) break;
    for (const id of children) seen.add(id);
    const update = REVOKE_SQL.bind({ ids: JSON.stringify(children), revoked_at_ms: revokedAt.getTime(), revoked_by: revokedById });
    revoked.push(...idRows.parse(await tx.$queryRawUnsafe<unknown[]>(update.text, ...update.values)).map((row) => row.id));
    level = children;
  }
  return revoked;
}
