import type { Queryable } from '../runs/pg-pool';
import type { Statement } from '../runs/write-unit';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { FINISHED_STATUSES_SQL as FINISHED } from '../vocabulary/statuses';

/** A restore request the worker has not settled yet (`sessions.restore`). */
export interface PendingRestore {
  id: string;
  atEvent: number;
  /** The commit recorded at `atEvent`; null: the empty workspace. */
  sourceCommit: string | null;
  /** Files or directories to restore; empty: the whole workspace. */
  paths: string[];
  requestedById: string;
}

/** How the worker settled a request: the event it became and the commit it made, or why it could not be applied. */
export type SettledRestore = { id: string; seq: number; commit: string; error: null } | { id: string; seq: null; commit: null; error: string };

const PENDING_SQL = namedQuery({
  name: 'looplane_restores_pending_v1',
  params: { session_id: param.text },
  text: `
SELECT id, "atEvent", "sourceCommit", paths, "requestedById" FROM "WorkspaceRestore"
WHERE "sessionId" = :session_id AND "appliedAt" IS NULL
ORDER BY "createdAt", id`,
}).returns<PendingRestore>();

/** A session's unsettled restore requests, oldest first. */
export async function pendingRestores(db: Queryable, sessionId: string): Promise<PendingRestore[]> {
  return rowsOf(PENDING_SQL, await db.query(PENDING_SQL.bind({ session_id: sessionId })));
}

// Only a request still unsettled is settled: a repeat (a job that died after its commit) changes nothing.
const SETTLE_SQL = namedQuery({
  name: 'looplane_restores_settle_v1',
  params: { settled: param.jsonb },
  text: `
UPDATE "WorkspaceRestore" r
SET "appliedAt" = statement_timestamp(), "appliedSeq" = x.seq, "commit" = x.commit, "error" = x.error
FROM jsonb_to_recordset(:settled) AS x(id text, seq int, commit text, error text)
WHERE r.id = x.id AND r."appliedAt" IS NULL`,
});

/**
 * The statement that settles requests, for the write unit's open transaction (`WriteUnit.checked`):
 * it commits with the flush that appends their `workspace.restored` events, so a request is
 * settled exactly when its event is durable.
 */
export function settleRestoresStatement(settled: readonly SettledRestore[]): Statement {
  return SETTLE_SQL.bind({ settled: JSON.stringify(settled) });
}

// A finished session with a request left unsettled (it came in while the session was finishing):
// reopened as `sessions.restore` reopens one, so a worker applies it and finishes it again.
const REOPEN_SQL = namedQuery({
  name: 'looplane_restores_reopen_v1',
  params: { session_id: param.text },
  text: `
UPDATE "Session" s SET status = 'idle', "updatedAt" = statement_timestamp()
WHERE s.id = :session_id AND s.status IN ${FINISHED} AND s."leaseOwner" IS NULL
  AND EXISTS (SELECT 1 FROM "WorkspaceRestore" r WHERE r."sessionId" = s.id AND r."appliedAt" IS NULL)
RETURNING s."runId"`,
}).returns<{ runId: string }>();

/** Reopens a finished session that still has a restore to apply; its run id when it did (the caller enqueues it). */
export async function reopenForRestores(db: Queryable, sessionId: string): Promise<string | null> {
  return rowsOf(REOPEN_SQL, await db.query(REOPEN_SQL.bind({ session_id: sessionId })))[0]?.runId ?? null;
}
