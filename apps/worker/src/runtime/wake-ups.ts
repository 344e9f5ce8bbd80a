import { lastRefusedReservation, pathHasRoom, type Queryable } from '@looplane/db';
import { createEvent, type Clock, type NewEvent, type RunState } from '@looplane/engine';
import type { ApprovalGate } from './approval-gate';
import type { SessionPolicy } from '../ports/team-policy';
import { approvalDecision } from './approval-decision';
import { recheckEditedCall } from './edited-call-check';
import { resolveChildWait } from '../swarm/child-wake';

/** A wait the engine reports (`next(state)` is `wait`): why, and on what (call ids, request ids). */
export interface Wait {
  reason: 'approval' | 'child' | 'budget' | 'message' | 'isolation';
  refs: string[];
}

export interface WakeContext {
  db: Queryable;
  runId: string;
  sessionId: string;
  state: RunState;
  clock: Clock;
  /**
   * Set only by the worker holding the session's lease: it may open the approval row of a wait.
   * Without it (a read-only probe before a claim) a missing row counts as a wake-up.
   */
  approvals?: ApprovalGate;
  /** The session's team policy port, set with `approvals`: an approver's edited call is decided again before it runs. */
  policy?: SessionPolicy;
  /** The isolation levels this worker gives a call (its sandbox's working drivers). */
  isolationLevels: () => Promise<readonly string[]>;
}

/**
 * Looks at what changed in Postgres for one kind of wait and returns the deciding events to
 * append (then the session is driven again), or null while it must keep waiting.
 */
type WakeResolver = (wait: Wait, context: WakeContext) => Promise<NewEvent[] | null>;

/**
 * A budget wait ends once every ledger on the session's path has room for the refused reservation:
 * the run's (`runs.raiseBudget`) and, in a graph run, each edge's crossed to reach the session
 * (`graphs.raiseEdgeBudget`).
 */
const budget: WakeResolver = async (_wait, { db, runId, sessionId, clock }) => {
  const refused = await lastRefusedReservation(db, runId, sessionId);
  if (refused && !(await pathHasRoom(db, runId, sessionId, refused))) return null;
  return [createEvent('run.resumed', { reason: 'budget', note: 'the run budget was raised' }, clock)];
};

/**
 * An approval wait ends once its `Approval` row is decided (`approvals.decide`, or the sweeper's
 * expiry): the row becomes `approval.decided` (edited arguments included, decided again by the
 * policy, and asked again under four-eyes: see edited-call-check.ts). The row itself is opened here by the lease holder, right
 * after the drive that appended `approval.requested` flushed it, and again after a crash in
 * between (the insert is idempotent).
 */
const approval: WakeResolver = async (wait, context) => {
  const found = await approvalDecision(context.db, context.sessionId, wait.refs[0] ?? '', context.state, context.clock);
  if (!found) return null;
  if (found.kind === 'missing') {
    if (!context.approvals) return [];
    await context.approvals.open({ runId: context.runId, sessionId: context.sessionId, requestSeq: found.requestSeq, payload: found.payload });
    return null;
  }
  if (found.kind === 'pending') return null;
  if (!found.edited || !context.policy) return found.events;
  const fourEyes = (await context.approvals?.fourEyes(found.edited.teamId)) ?? false;
  return recheckEditedCall(context.policy, found.edited, found.events, context.clock, fourEyes);
};

/**
 * A persistent run that answered waits for the next message. Nothing here ends that wait: a
 * message is taken from the inbox at the step boundary before the engine is asked what to do (it
 * wakes the session: `SessionJobs.hasWakeUp`, and a release that raced it re-enqueues), so while
 * the engine still says `wait` no message has come.
 */
const message: WakeResolver = async () => null;

/**
 * A call deferred for an isolation level (`tool.deferred`) runs on the first worker that offers
 * it: the wait ends when this worker does (refs: the level, then the call). A worker that does not
 * leaves it waiting; the runtime hands such a session to the level's queue (isolation-queues.ts).
 */
const isolation: WakeResolver = async (wait, { isolationLevels, clock }) => {
  const level = wait.refs[0] ?? '';
  if (!(await isolationLevels()).includes(level)) return null;
  return [createEvent('run.resumed', { reason: 'isolation', note: `a worker offering ${level} took the run` }, clock)];
};

/**
 * The resume dispatch: one resolver per wait reason. A child wait starts the delegated sessions
 * and ends when their results crossed back (`delegation.returned`; see swarm/child-wake.ts).
 */
const resolvers: Record<Wait['reason'], WakeResolver> = {
  budget,
  approval,
  child: resolveChildWait,
  message,
  isolation,
};

/** The events that end `wait`, or null if nothing it waits for has happened yet. */
export function resolveWait(wait: Wait, context: WakeContext): Promise<NewEvent[] | null> {
  return resolvers[wait.reason](wait, context);
}
