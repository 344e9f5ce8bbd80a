import { callArguments, countRecordedDecisions, recordedDecisionPage, type Db, type Queryable, type RecordedDecisionRow } from '@looplane/db';
import { OUTCOMES, APPROVER_ROLES, type ApproverRole, type Outcome, type RecordedDecision } from '@looplane/policy';
import { isRecord } from './policies-redecide';
import { queryableOf } from '@looplane/db';

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

/** Rows in the window, for progress. Reads the (teamId, action, createdAt) index range. */
export async function countRecordedCalls(db: Db, window: CallWindow): Promise<number> {
  return countRecordedDecisions(queryableOf(db), window);
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
async function fullArgs(db: Queryable, rows: RecordedDecisionRow[]): Promise<Map<string, Array<{ type: string; args: unknown }>>> {
  const cut = rows.flatMap((r) =>
    typeof r.args === 'string' && r.runId && r.sessionId && r.callId ? [{ runId: r.runId, sessionId: r.sessionId, callId: r.callId }] : [],
  );
  const found = new Map<string, Array<{ type: string; args: unknown }>>();
  for (const e of await callArguments(db, cut)) {
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
  const q = queryableOf(db);
  let cursor: { at: Date; id: bigint } = { at: window.since, id: -1n };
  for (;;) {
    signal?.throwIfAborted();
    const rows = await recordedDecisionPage(q, window, cursor, batchSize);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.at, id: last.auditId };
    const full = await fullArgs(q, rows);
    const calls: RecordedCall[] = [];
    for (const row of rows) {
      const args = typeof row.args === 'string' ? pickFull(row.args, full.get(`${row.sessionId}\u0000${row.callId}`) ?? []) : row.args;
      if (!row.runId || !row.sessionId || !row.callId || !row.tool || !isOutcome(row.outcome) || !isRecord(args)) continue;
      const recorded: RecordedDecision = {
        outcome: row.outcome,
        ruleId: row.ruleId ?? 'default',
        ...(row.outcome === 'require_approval' && isApproverRole(row.approverRole) ? { approverRole: row.approverRole } : {}),
      };
      calls.push({ auditId: row.auditId, at: row.at, runId: row.runId, sessionId: row.sessionId, callId: row.callId, tool: row.tool, args, recorded });
    }
    yield { calls, rows: rows.length, skipped: rows.length - calls.length };
    if (rows.length < batchSize) return;
  }
}
