import type { Db } from '@looplane/db';
import { OUTCOMES, APPROVER_ROLES, type ApproverRole, type Outcome, type RecordedDecision } from '@looplane/policy';
import { isRecord } from './policies-redecide';

/**
 * A tool call as the worker decided it, read from its `policy.decided` audit row (actor the run,
 * target the run): the call as the policy saw it, and what the policy said then.
 */
export interface RecordedCall {
  auditId: bigint;
  at: Date;
  runId: string;
  sessionId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  recorded: RecordedDecision;
}

/** The window of a backtest: audit rows with `since <= createdAt < until`. */
export interface CallWindow {
  teamId: string;
  since: Date;
  until: Date;
}

interface Row {
  id: bigint;
  at: Date;
  runId: string | null;
  sessionId: string | null;
  callId: string | null;
  tool: string | null;
  args: unknown;
  outcome: string | null;
  ruleId: string | null;
  approverRole: string | null;
}

/**
 * Only the worker's decisions count (targetType run): an approver's edited call is decided by
 * the API too (targetType approval), but it is a check of the edit, and the worker decides the
 * edited call again before it runs, in a row of its own.
 */
const DECIDED = `a."teamId" = $1 AND a.action = 'policy.decided' AND a."targetType" = 'run' AND a."createdAt" >= $2 AND a."createdAt" < $3`;

const PAGE_SQL = `
SELECT a.id, a."createdAt" AS at, a."targetId" AS "runId",
  a.data->>'sessionId' AS "sessionId", a.data->>'callId' AS "callId", a.data->>'tool' AS tool, a.data->'args' AS args,
  a.data->>'outcome' AS outcome, a.data->>'ruleId' AS "ruleId", a.data->>'approverRole' AS "approverRole"
FROM "AuditLog" a
WHERE ${DECIDED} AND (a."createdAt", a.id) > ($4, $5)
ORDER BY a."createdAt", a.id
LIMIT $6`;

/**
 * Audit rows keep at most 4 KiB of arguments (longer ones as a cut JSON string); the call's
 * events keep them whole: the model's `tool.requested`, or an approver's `editedArgs`.
 */
const FULL_ARGS_SQL = `
SELECT e."sessionId", e.payload->>'callId' AS "callId", e.type,
  CASE WHEN e.type = 'tool.requested' THEN e.payload->'args' ELSE e.payload->'editedArgs' END AS args
FROM "Event" e
JOIN unnest($1::text[], $2::text[], $3::text[]) AS x(run, session, call)
  ON e."runId" = x.run AND e."sessionId" = x.session AND e.payload->>'callId' = x.call
WHERE e.type IN ('tool.requested', 'approval.decided')
ORDER BY e.seq`;

/** Rows in the window, for progress. Reads the (teamId, action, createdAt) index range. */
export async function countRecordedCalls(db: Db, window: CallWindow): Promise<number> {
  const rows = await db.$queryRawUnsafe<Array<{ n: bigint }>>(
    `SELECT count(*) AS n FROM "AuditLog" a WHERE ${DECIDED}`,
    window.teamId,
    window.since,
    window.until,
  );
  return Number(rows[0]?.n ?? 0);
}

function isOutcome(value: string | null): value is Outcome {
  return (OUTCOMES as readonly string[]).includes(value ?? '');
}

function isApproverRole(value: string | null): value is ApproverRole {
  return (APPROVER_ROLES as readonly string[]).includes(value ?? '');
}

/** The first candidate whose JSON starts as the audit row's cut string does; else the model's own arguments. */
function pickFull(cut: string, candidates: Array<{ type: string; args: unknown }>): Record<string, unknown> | null {
  const prefix = cut.endsWith('…') ? cut.slice(0, -1) : cut;
  const objects = candidates.filter((c): c is { type: string; args: Record<string, unknown> } => isRecord(c.args));
  const matching = objects.find((c) => JSON.stringify(c.args).startsWith(prefix));
  return (matching ?? objects.find((c) => c.type === 'tool.requested'))?.args ?? null;
}

/** Full arguments for the rows whose audit copy was cut, in one query per batch. */
async function fullArgs(db: Db, rows: Row[]): Promise<Map<string, Array<{ type: string; args: unknown }>>> {
  const cut = rows.filter((r) => typeof r.args === 'string' && r.runId && r.sessionId && r.callId);
  const found = new Map<string, Array<{ type: string; args: unknown }>>();
  if (cut.length === 0) return found;
  const events = await db.$queryRawUnsafe<Array<{ sessionId: string; callId: string; type: string; args: unknown }>>(
    FULL_ARGS_SQL,
    cut.map((r) => r.runId),
    cut.map((r) => r.sessionId),
    cut.map((r) => r.callId),
  );
  for (const e of events) {
    const key = `${e.sessionId}\u0000${e.callId}`;
    found.set(key, [...(found.get(key) ?? []), { type: e.type, args: e.args }]);
  }
  return found;
}

/** One page of recorded calls and how many rows of it could not be read as a call. */
export interface RecordedPage {
  calls: RecordedCall[];
  rows: number;
  skipped: number;
}

/**
 * The window's recorded calls, oldest first, in pages of at most `batchSize` rows read by keyset
 * (createdAt, id): however long the window, at most one page is in memory. A row that is not a
 * readable decision (no tool, an unknown outcome, arguments that cannot be recovered) is counted
 * as skipped, never guessed at.
 */
export async function* recordedCallPages(db: Db, window: CallWindow, batchSize: number, signal?: AbortSignal): AsyncGenerator<RecordedPage> {
  let cursor: { at: Date; id: bigint } = { at: window.since, id: -1n };
  for (;;) {
    signal?.throwIfAborted();
    const rows = await db.$queryRawUnsafe<Row[]>(PAGE_SQL, window.teamId, window.since, window.until, cursor.at, cursor.id, batchSize);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.at, id: last.id };
    const full = await fullArgs(db, rows);
    const calls: RecordedCall[] = [];
    for (const row of rows) {
      const args = typeof row.args === 'string' ? pickFull(row.args, full.get(`${row.sessionId}\u0000${row.callId}`) ?? []) : row.args;
      if (!row.runId || !row.sessionId || !row.callId || !row.tool || !isOutcome(row.outcome) || !isRecord(args)) continue;
      const recorded: RecordedDecision = {
        outcome: row.outcome,
        ruleId: row.ruleId ?? 'default',
        ...(row.outcome === 'require_approval' && isApproverRole(row.approverRole) ? { approverRole: row.approverRole } : {}),
      };
      calls.push({ auditId: row.id, at: row.at, runId: row.runId, sessionId: row.sessionId, callId: row.callId, tool: row.tool, args, recorded });
    }
    yield { calls, rows: rows.length, skipped: rows.length - calls.length };
    if (rows.length < batchSize) return;
  }
}
