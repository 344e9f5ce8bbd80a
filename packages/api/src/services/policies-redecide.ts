import type { Db } from '@looplane/db';
import { redecide, simulate, type Decision, type PolicyDocument } from '@looplane/policy';

/** How far back "recent real tool calls" reach: the team's latest runs, and at most this many calls. */
const RECENT_RUNS = 50;
const RECENT_CALLS = 500;

export interface RecentCall {
  tool: string;
  args: Record<string, unknown>;
  runId: string;
  callId: string;
  at: Date;
}

/** Whether a JSON value is an object (not an array): the shape of a tool call's arguments. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tool calls models actually asked for (`tool.requested` events) in the team's most recent
 * runs, newest first. Reads through the (runId, type) index, never the whole event table.
 */
export async function recentToolCalls(db: Db, teamId: string): Promise<RecentCall[]> {
  const runs = await db.run.findMany({ where: { teamId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: RECENT_RUNS, select: { id: true } });
  if (runs.length === 0) return [];
  const events = await db.event.findMany({
    where: { runId: { in: runs.map((r) => r.id) }, type: 'tool.requested' },
    orderBy: { id: 'desc' },
    take: RECENT_CALLS,
    select: { runId: true, payload: true, createdAt: true },
  });
  const calls: RecentCall[] = [];
  for (const event of events) {
    const p = event.payload;
    if (!isRecord(p) || typeof p.name !== 'string' || typeof p.callId !== 'string' || !isRecord(p.args)) continue;
    calls.push({ tool: p.name, args: p.args, runId: event.runId, callId: p.callId, at: event.createdAt });
  }
  return calls;
}

/** A decision without the shell analysis (the page shows outcome, rule and reason). */
function brief(decision: Decision) {
  return { outcome: decision.outcome, ruleId: decision.ruleId, reason: decision.reason, approverRole: decision.approverRole ?? null, risk: decision.risk };
}

/** The calls `next` decides differently from `previous` (another outcome or approver role). */
export function redecideRecent(previous: PolicyDocument, next: PolicyDocument, calls: RecentCall[]) {
  return redecide(previous, next, calls).map(({ call, before, after }) => ({
    runId: call.runId,
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    at: call.at,
    before: brief(before),
    after: brief(after),
  }));
}

/** The simulator's answer: the decision, the rule that matched, and the trace of rules tried. */
export function simulateCall(document: PolicyDocument, tool: string, args: Record<string, unknown>) {
  const result = simulate(document, { tool, args });
  // `sandbox`: the least isolation the call would run with (its rule's minimumDriver, else the document's minimum).
  return { ...brief(result), sandbox: result.sandbox, trace: result.trace, effects: result.effects, analysis: result.analysis ?? null };
}
