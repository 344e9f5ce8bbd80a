import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { utcFromMs } from '../sql/epoch-ms';

/**
 * The worker's `policy.decided` audit rows (actor the run, target the run), read back for a
 * policy backtest: the call as the policy saw it, and what the policy said then.
 */

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** The window of a backtest: the team's audit rows with `since <= createdAt < until`. */
export interface DecisionWindow {
  teamId: string;
  since: Date;
  until: Date;
}

/** A `policy.decided` audit row as stored; any field may be missing from an unexpected row. */
export interface RecordedDecisionRow {
  auditId: bigint;
  at: Date;
  runId: string | null;
  sessionId: string | null;
  callId: string | null;
  tool: string | null;
  /** The call's arguments, or a cut JSON string when they were longer than the audit row keeps. */
  args: unknown;
  outcome: string | null;
  ruleId: string | null;
  approverRole: string | null;
}

/** Where a keyset page starts: after this row, in (createdAt, id) order. */
export interface DecisionCursor {
  at: Date;
  id: bigint;
}

/**
 * Only the worker's decisions count (targetType run): an approver's edited call is decided by
 * the API too (targetType approval), but it is a check of the edit, and the worker decides the
 * edited call again before it runs, in a row of its own.
 */
const DECIDED = `a."teamId" = :team_id AND a.action = 'policy.decided' AND a."targetType" = 'run' AND a."createdAt" >= ${utcFromMs('since_ms')} AND a."createdAt" < ${utcFromMs('until_ms')}`;
const windowParams = { team_id: param.text, since_ms: param.bigint, until_ms: param.bigint };
const windowValues = (window: DecisionWindow) => ({ team_id: window.teamId, since_ms: window.since.getTime(), until_ms: window.until.getTime() });

const COUNT_SQL = namedQuery({
  name: 'looplane_policy_recorded_decisions_count_v1',
  params: windowParams,
  text: `SELECT count(*)::float8 AS n FROM "AuditLog" a WHERE ${DECIDED}`,
}).returns<{ n: number }>();

/** Rows in the window, for progress. Reads the (teamId, action, createdAt) index range. */
export async function countRecordedDecisions(db: Queryable, window: DecisionWindow): Promise<number> {
  return rowsOf(COUNT_SQL, await db.query(COUNT_SQL.bind(windowValues(window))))[0]?.n ?? 0;
}

// The id as text and the time as epoch milliseconds: node-postgres and Prisma's raw queries give
// the same values, and the id stays exact for the next page's cursor.
const PAGE_SQL = namedQuery({
  name: 'looplane_policy_recorded_decisions_page_v1',
  params: { ...windowParams, after_ms: param.bigint, after_id: param.text, batch: param.int },
  text: `
SELECT a.id::text AS id, (extract(epoch FROM a."createdAt") * 1000)::float8 AS "atMs", a."targetId" AS "runId",
  a.data->>'sessionId' AS "sessionId", a.data->>'callId' AS "callId", a.data->>'tool' AS tool, a.data->'args' AS args,
  a.data->>'outcome' AS outcome, a.data->>'ruleId' AS "ruleId", a.data->>'approverRole' AS "approverRole"
FROM "AuditLog" a
WHERE ${DECIDED} AND (a."createdAt", a.id) > (${utcFromMs('after_ms')}, :after_id::bigint)
ORDER BY a."createdAt", a.id
LIMIT :batch`,
}).returns<Omit<RecordedDecisionRow, 'auditId' | 'at'> & { id: string; atMs: number }>();

/** Up to `batch` rows of the window after `cursor`, oldest first (a keyset page over the index range). */
export async function recordedDecisionPage(db: Queryable, window: DecisionWindow, cursor: DecisionCursor, batch: number): Promise<RecordedDecisionRow[]> {
  const query = PAGE_SQL.bind({ ...windowValues(window), after_ms: cursor.at.getTime(), after_id: cursor.id.toString(), batch });
  return rowsOf(PAGE_SQL, await db.query(query)).map(({ id, atMs, ...row }) => ({ ...row, auditId: BigInt(id), at: new Date(atMs) }));
}

/** A call of a run's session, named by its call id. */
export interface CallRef {
  runId: string;
  sessionId: string;
  callId: string;
}

/** Arguments a call's event carries whole: the model's (`tool.requested`) or an approver's edit (`approval.decided`). */
export interface CallArguments {
  sessionId: string;
  callId: string;
  type: string;
  args: unknown;
}

const CALL_ARGUMENTS_SQL = namedQuery({
  name: 'looplane_policy_call_arguments_v1',
  params: { runs: param.textArray, sessions: param.textArray, calls: param.textArray },
  text: `
SELECT e."sessionId", e.payload->>'callId' AS "callId", e.type,
  CASE WHEN e.type = 'tool.requested' THEN e.payload->'args' ELSE e.payload->'editedArgs' END AS args
FROM "Event" e
JOIN unnest(:runs, :sessions, :calls) AS x(run, session, call)
  ON e."runId" = x.run AND e."sessionId" = x.session AND e.payload->>'callId' = x.call
WHERE e.type IN ('tool.requested', 'approval.decided')
ORDER BY e.seq`,
}).returns<CallArguments>();

/**
 * Audit rows keep at most 4 KiB of arguments (longer ones as a cut JSON string); the call's
 * events keep them whole. Every argument-carrying event of the calls, in one query, in seq order.
 */
export async function callArguments(db: Queryable, calls: readonly CallRef[]): Promise<CallArguments[]> {
  if (calls.length === 0) return [];
  const query = CALL_ARGUMENTS_SQL.bind({ runs: calls.map((c) => c.runId), sessions: calls.map((c) => c.sessionId), calls: calls.map((c) => c.callId) });
  return rowsOf(CALL_ARGUMENTS_SQL, await db.query(query));
}

const DECISION_SEQS_SQL = namedQuery({
  name: 'looplane_policy_decision_seqs_v1',
  params: { runs: param.textArray, sessions: param.textArray, calls: param.textArray },
  text: `
SELECT e."sessionId", e.payload->>'callId' AS "callId",
  COALESCE(min(e.seq) FILTER (WHERE e.type = 'policy.decided'), min(e.seq) FILTER (WHERE e.type = 'tool.requested')) AS seq
FROM "Event" e
JOIN unnest(:runs, :sessions, :calls) AS x(run, session, call)
  ON e."runId" = x.run AND e.type IN ('policy.decided', 'tool.requested') AND e."sessionId" = x.session AND e.payload->>'callId' = x.call
GROUP BY 1, 2`,
}).returns<DecisionSeq>();

/** The seq of a call's decision event in its session; null when neither event is found. */
export interface DecisionSeq {
  sessionId: string;
  callId: string;
  seq: number | null;
}

/**
 * The seq of each call's `policy.decided` event in its session (else its `tool.requested`), in
 * one query over the (runId, type) index.
 */
export async function decisionSeqs(db: Queryable, calls: readonly CallRef[]): Promise<DecisionSeq[]> {
  if (calls.length === 0) return [];
  const query = DECISION_SEQS_SQL.bind({ runs: calls.map((c) => c.runId), sessions: calls.map((c) => c.sessionId), calls: calls.map((c) => c.callId) });
  return rowsOf(DECISION_SEQS_SQL, await db.query(query));
}
