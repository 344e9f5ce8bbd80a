import { AppError } from '@looplane/shared';
import type { PgClient, Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The index of stored workspace packs (`WorkspacePack`), in Postgres whichever driver holds the
 * bytes (`storage`: postgres | s3): the chain of a commit is one recursive query.
 */

/** One pack's index row: the objects of `commit` that `base` does not reach. */
export interface WorkspacePackRow {
  runId: string;
  commit: string;
  /** The commit this pack is relative to; null: self-contained. */
  base: string | null;
  /** The session whose tool call made the commit. */
  sessionId: string;
  /** Packs between this one and a self-contained one. */
  depth: number;
  bytes: number;
}

const INSERT_SQL = namedQuery({
  name: 'looplane_workspace_pack_insert_v2',
  params: { run_id: param.text, commit: param.text, base: param.nullableText, session_id: param.text, depth: param.int, bytes: param.int, storage: param.text },
  text: `
INSERT INTO "WorkspacePack" ("runId", "commit", "base", "sessionId", "depth", "bytes", "storage")
VALUES (:run_id, :commit, :base, :session_id, :depth, :bytes, :storage)
ON CONFLICT ("runId", "commit") DO NOTHING
RETURNING "commit"`,
});

/** Newest first; `n` guards against a cycle a corrupted index could hold. */
const CHAIN_SQL = namedQuery({
  name: 'looplane_workspace_pack_chain_v2',
  params: { run_id: param.text, commit: param.text },
  text: `
WITH RECURSIVE c AS (
  SELECT "runId", "commit", "base", "sessionId", "depth", "bytes", 0 AS n FROM "WorkspacePack" WHERE "runId" = :run_id AND "commit" = :commit
  UNION ALL
  SELECT p."runId", p."commit", p."base", p."sessionId", p."depth", p."bytes", c.n + 1
  FROM "WorkspacePack" p JOIN c ON p."runId" = c."runId" AND p."commit" = c."base"
  WHERE c.n < 100000
)
SELECT "runId", "commit", "base", "sessionId", "depth", "bytes" FROM c ORDER BY n`,
}).returns<WorkspacePackRow>();

const HAS_SQL = namedQuery({
  name: 'looplane_workspace_pack_has_v2',
  params: { run_id: param.text, commit: param.text },
  text: `SELECT 1 FROM "WorkspacePack" WHERE "runId" = :run_id AND "commit" = :commit`,
});

/** Adds a pack's row; false when the commit was stored already. */
export async function insertWorkspacePack(db: Queryable | PgClient, entry: WorkspacePackRow, storage: string): Promise<boolean> {
  const result = await db.query(
    INSERT_SQL.bind({
      run_id: entry.runId,
      commit: entry.commit,
      base: entry.base,
      session_id: entry.sessionId,
      depth: entry.depth,
      bytes: entry.bytes,
      storage,
    }),
  );
  return (result.rowCount ?? 0) > 0;
}

/** The chain of a commit, newest first; [] when the commit is not stored. A chain with a missing link is an error. */
export async function workspacePackChain(db: Queryable, runId: string, commit: string): Promise<WorkspacePackRow[]> {
  const chain = rowsOf(CHAIN_SQL, await db.query(CHAIN_SQL.bind({ run_id: runId, commit })));
  const last = chain[chain.length - 1];
  if (last && last.base !== null) {
    throw new AppError(
      'INTERNAL',
      `the workspace store's chain of commit ${commit} (run ${runId}) is broken at ${last.commit}: its base ${last.base} is not stored`,
    );
  }
  return chain;
}

export async function hasWorkspacePack(db: Queryable, runId: string, commit: string): Promise<boolean> {
  const result = await db.query(HAS_SQL.bind({ run_id: runId, commit }));
  return (result.rowCount ?? 0) > 0;
}
