import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { TERMINAL_RUN_STATUSES } from '../vocabulary/statuses';

/**
 * Retention of run files (LOOPLANE_WORKSPACE_RETENTION_DAYS): which runs ended long enough ago,
 * and the record of a removal (`WorkspaceRemoval`), so that a later fork or resume of the run
 * fails naming it on whichever host it runs. Removals are idempotent: sweeps on several hosts
 * never conflict. `finishedAt` is stored as UTC without a zone, hence `AT TIME ZONE 'UTC'`.
 */

/** Why a run's files are gone. */
export interface WorkspaceRemovalRow {
  removedAt: Date;
  reason: string;
}

const REMOVE_SQL = namedQuery({
  name: 'looplane_workspace_remove_v2',
  params: { run_id: param.text, reason: param.text },
  text: `
WITH gone AS (DELETE FROM "WorkspacePack" WHERE "runId" = :run_id)
INSERT INTO "WorkspaceRemoval" ("runId", "reason") SELECT :run_id, :reason WHERE EXISTS (SELECT 1 FROM "Run" WHERE id = :run_id)
ON CONFLICT ("runId") DO NOTHING`,
});

const REMOVAL_SQL = namedQuery({
  name: 'looplane_workspace_removal_v2',
  params: { run_id: param.text },
  text: `SELECT "removedAt", "reason" FROM "WorkspaceRemoval" WHERE "runId" = :run_id`,
}).returns<WorkspaceRemovalRow>();

const EXPIRED_SQL = namedQuery({
  name: 'looplane_workspace_expired_v2',
  params: { terminal: param.textArray, ended_before: param.timestamptz, limit: param.int },
  text: `
SELECT r.id FROM "Run" r
WHERE r.status::text = ANY(:terminal) AND r."finishedAt" < (:ended_before AT TIME ZONE 'UTC')
  AND EXISTS (SELECT 1 FROM "WorkspacePack" p WHERE p."runId" = r.id)
ORDER BY r."finishedAt"
LIMIT :limit`,
}).returns<{ id: string }>();

/** Local copies whose run ended long ago or whose files were removed from the store. */
const LOCAL_SQL = namedQuery({
  name: 'looplane_workspace_retention_v3',
  params: { session_ids: param.textArray, terminal: param.textArray, ended_before: param.timestamptz },
  text: `
SELECT s.id FROM "Session" s JOIN "Run" r ON r.id = s."runId"
WHERE s.id = ANY(:session_ids)
  AND ((r.status::text = ANY(:terminal) AND r."finishedAt" < (:ended_before AT TIME ZONE 'UTC')) OR EXISTS (SELECT 1 FROM "WorkspaceRemoval" w WHERE w."runId" = r.id))`,
}).returns<{ id: string }>();

/** Drops a run's index rows (chunks go with them) and records the removal, in one statement. */
export async function removeRunWorkspace(db: Queryable, runId: string, reason: string): Promise<void> {
  await db.query(REMOVE_SQL.bind({ run_id: runId, reason }));
}

/** Why a run's files were removed, or null when they were not. */
export async function workspaceRemoval(db: Queryable, runId: string): Promise<WorkspaceRemovalRow | null> {
  return rowsOf(REMOVAL_SQL, await db.query(REMOVAL_SQL.bind({ run_id: runId })))[0] ?? null;
}

/** Finished runs that ended before `endedBefore` and still have stored packs, oldest first (at most `limit`). */
export async function runsWithExpiredWorkspaces(db: Queryable, endedBefore: Date, limit: number): Promise<string[]> {
  const result = await db.query(EXPIRED_SQL.bind({ terminal: TERMINAL_RUN_STATUSES, ended_before: endedBefore, limit }));
  return rowsOf(EXPIRED_SQL, result).map((row) => row.id);
}

/**
 * Of `sessionIds` (local workspace copies), those whose run ended before `endedBefore` or whose
 * files were removed from the store. A session the database does not know is never returned.
 */
export async function sessionsPastRetention(db: Queryable, sessionIds: readonly string[], endedBefore: Date): Promise<string[]> {
  const result = await db.query(LOCAL_SQL.bind({ session_ids: sessionIds, terminal: TERMINAL_RUN_STATUSES, ended_before: endedBefore }));
  return rowsOf(LOCAL_SQL, result).map((row) => row.id);
}
