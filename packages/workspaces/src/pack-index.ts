import type { PgClient, Queryable } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PackEntry, RemovalNote, StoreDriverName } from './workspace-store';

/**
 * The index of stored packs, in Postgres whichever driver holds the bytes: the chain of a commit
 * is one recursive query, and retention finds expired runs with a join on `Run`.
 */

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

const INSERT_SQL = `
INSERT INTO "WorkspacePack" ("runId", "commit", "base", "sessionId", "depth", "bytes", "storage")
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT ("runId", "commit") DO NOTHING
RETURNING "commit"`;

/** Newest first; `n` guards against a cycle a corrupted index could hold. */
const CHAIN_SQL = `
WITH RECURSIVE c AS (
  SELECT "runId", "commit", "base", "sessionId", "depth", "bytes", 0 AS n FROM "WorkspacePack" WHERE "runId" = $1 AND "commit" = $2
  UNION ALL
  SELECT p."runId", p."commit", p."base", p."sessionId", p."depth", p."bytes", c.n + 1
  FROM "WorkspacePack" p JOIN c ON p."runId" = c."runId" AND p."commit" = c."base"
  WHERE c.n < 100000
)
SELECT "runId", "commit", "base", "sessionId", "depth", "bytes" FROM c ORDER BY n`;

const HAS_SQL = `SELECT 1 FROM "WorkspacePack" WHERE "runId" = $1 AND "commit" = $2`;
const REMOVAL_SQL = `SELECT "removedAt", "reason" FROM "WorkspaceRemoval" WHERE "runId" = $1`;
const REMOVE_SQL = `
WITH gone AS (DELETE FROM "WorkspacePack" WHERE "runId" = $1)
INSERT INTO "WorkspaceRemoval" ("runId", "reason") SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM "Run" WHERE id = $1)
ON CONFLICT ("runId") DO NOTHING`;
const EXPIRED_SQL = `
SELECT r.id FROM "Run" r
WHERE r.status::text = ANY($1::text[]) AND r."finishedAt" < $2
  AND EXISTS (SELECT 1 FROM "WorkspacePack" p WHERE p."runId" = r.id)
ORDER BY r."finishedAt"
LIMIT $3`;

/** Adds a pack's row; false when the commit was stored already. */
export async function insertPack(db: Queryable | PgClient, entry: PackEntry, storage: StoreDriverName): Promise<boolean> {
  const result = await db.query({
    name: 'looplane_workspace_pack_insert_v1',
    text: INSERT_SQL,
    values: [entry.runId, entry.commit, entry.base, entry.sessionId, entry.depth, entry.bytes, storage],
  });
  return (result.rowCount ?? 0) > 0;
}

/** The chain of a commit, newest first; [] when the commit is not stored. A chain with a missing link is an error. */
export async function packChain(db: Queryable, runId: string, commit: string): Promise<PackEntry[]> {
  const result = await db.query({ name: 'looplane_workspace_pack_chain_v1', text: CHAIN_SQL, values: [runId, commit] });
  const chain = result.rows as PackEntry[];
  const last = chain[chain.length - 1];
  if (last && last.base !== null) {
    throw new AppError(
      'INTERNAL',
      `the workspace store's chain of commit ${commit} (run ${runId}) is broken at ${last.commit}: its base ${last.base} is not stored`,
    );
  }
  return chain;
}

export async function hasPack(db: Queryable, runId: string, commit: string): Promise<boolean> {
  const result = await db.query({ name: 'looplane_workspace_pack_has_v1', text: HAS_SQL, values: [runId, commit] });
  return (result.rowCount ?? 0) > 0;
}

/** Drops a run's index rows (chunks go with them) and records the removal, in one statement. */
export async function removeRunPacks(db: Queryable, runId: string, reason: string): Promise<void> {
  await db.query({ name: 'looplane_workspace_remove_v1', text: REMOVE_SQL, values: [runId, reason] });
}

export async function runRemoval(db: Queryable, runId: string): Promise<RemovalNote | null> {
  const result = await db.query({ name: 'looplane_workspace_removal_v1', text: REMOVAL_SQL, values: [runId] });
  return (result.rows[0] as RemovalNote | undefined) ?? null;
}

export async function expiredRuns(db: Queryable, endedBefore: Date, limit: number): Promise<string[]> {
  const result = await db.query({ name: 'looplane_workspace_expired_v1', text: EXPIRED_SQL, values: [TERMINAL, endedBefore, limit] });
  return (result.rows as { id: string }[]).map((row) => row.id);
}
