import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { FINISHED_STATUSES_SQL as FINISHED } from '../vocabulary/statuses';

/**
 * A message to a finished run continues it: its main session becomes claimable again (`idle`, as
 * `sessions.resume` reopens a branch) and the run is queued, its result, error and finish time
 * cleared. The worker that claims the session sees a finished log on a live row, appends
 * `run.resumed` and takes the message from the inbox as the next user turn; it spends from the
 * same run ledger. A cancelled run is never continued here.
 *
 * Lock order: the main Session row first, then the Run row (the order the flush and admission take
 * them in, append-sql.ts), so a continue never waits on a writer in a cycle. Two messages racing to
 * one finished run queue on the session lock: the first reopens the run, the second finds it
 * queued (its compare-and-set on the finished status no longer holds) and reopens nothing.
 */

const REOPEN_SESSION_SET = `status = 'idle', "waitReason" = NULL, result = NULL, error = NULL, "finishedAt" = NULL, "updatedAt" = statement_timestamp()`;
const REOPEN_RUN_SET = `status = 'queued', "waitReason" = NULL, result = NULL, error = NULL, "finishedAt" = NULL, "updatedAt" = statement_timestamp()`;

const CONTINUE_SQL = namedQuery({
  name: 'looplane_run_continue_v1',
  params: { run_id: param.text },
  text: `
WITH main AS (
  SELECT s.id FROM "Session" s
  WHERE s.id = (SELECT "mainSessionId" FROM "Run" WHERE id = :run_id)
  FOR NO KEY UPDATE
), run AS (
  -- The session lock is taken first: the subquery runs before any Run row is read.
  UPDATE "Run" r SET ${REOPEN_RUN_SET}
  WHERE r.id = :run_id AND r."mainSessionId" = (SELECT id FROM main) AND r.status IN ('succeeded', 'failed')
  RETURNING r."mainSessionId"
), ses AS (
  UPDATE "Session" s SET ${REOPEN_SESSION_SET}
  FROM run WHERE s.id = run."mainSessionId" AND s.status IN ${FINISHED}
  RETURNING s.id
)
SELECT (SELECT id FROM main) AS "sessionId", (SELECT count(*) FROM run)::int AS reopened`,
}).returns<{ sessionId: string | null; reopened: number }>();

export interface ContinuedRun {
  /** The run's main session (null: the run has none). */
  sessionId: string | null;
  /** This call reopened the run; false when it was not finished (any more) or was cancelled. */
  reopened: boolean;
}

/**
 * Reopens a succeeded or failed run on its main session, inside the caller's transaction (the
 * locks hold until it commits). The caller puts the message into the main session's inbox and,
 * after the commit, enqueues the session.
 */
export async function continueFinishedRun(db: Queryable, runId: string): Promise<ContinuedRun> {
  const row = rowsOf(CONTINUE_SQL, await db.query(CONTINUE_SQL.bind({ run_id: runId })))[0];
  return { sessionId: row?.sessionId ?? null, reopened: (row?.reopened ?? 0) > 0 };
}

// The worker's side: a message that reached the inbox while the run was finishing (the sender saw
// it running) would otherwise wait forever on a finished session.
const CONTINUE_FOR_INBOX_SQL = namedQuery({
  name: 'looplane_run_continue_for_inbox_v1',
  params: { session_id: param.text },
  text: `
WITH main AS (
  SELECT s.id, s."runId" FROM "Session" s
  WHERE s.id = :session_id AND s.status IN ('succeeded', 'failed') AND s."leaseOwner" IS NULL
    AND EXISTS (SELECT 1 FROM "InboxMessage" i WHERE i."sessionId" = s.id AND i."consumedAt" IS NULL)
  FOR NO KEY UPDATE
), run AS (
  UPDATE "Run" r SET ${REOPEN_RUN_SET}
  WHERE r.id = (SELECT "runId" FROM main) AND r."mainSessionId" = :session_id
    AND r.status IN ('succeeded', 'failed') AND r."cancelRequestedAt" IS NULL
  RETURNING r.id, r."mainSessionId"
), ses AS (
  UPDATE "Session" s SET ${REOPEN_SESSION_SET}
  FROM run WHERE s.id = run."mainSessionId"
  RETURNING s.id
)
SELECT id AS "runId" FROM run`,
}).returns<{ runId: string }>();

/**
 * After a session finished: when it is its run's main line and a message waits in its inbox,
 * continues the run as {@link continueFinishedRun} does. Returns the run id when it did (the caller
 * enqueues the session).
 */
export async function continueForPendingMessages(db: Queryable, sessionId: string): Promise<string | null> {
  return rowsOf(CONTINUE_FOR_INBOX_SQL, await db.query(CONTINUE_FOR_INBOX_SQL.bind({ session_id: sessionId })))[0]?.runId ?? null;
}
