import { readApprovalDecision, type ApprovalDecisionRow, type Queryable } from '@looplane/db';
import { createEvent, type Clock, type EventPayload, type NewEvent, type RunState, type ToolArgs } from '@looplane/engine';
import type { Role } from '@looplane/shared';

/** Where an approval wait stands: its row is missing, pending, or decided (the events that end the wait). */
type ApprovalStanding =
  | { kind: 'missing'; requestSeq: number; payload: EventPayload<'approval.requested'> }
  | { kind: 'pending' }
  | { kind: 'decided'; events: NewEvent[]; edited: EditedDecision | null };

/** An approved tool call whose arguments the approver edited: what the worker decides again before it runs. */
export interface EditedDecision {
  approvalId: string;
  teamId: string;
  callId: string;
  tool: string;
  args: ToolArgs;
  decidedById: string | null;
  decidedBy: string | null;
  /** The decider's current role in the team (null: no longer a member). */
  deciderRole: Role | null;
}

/**
 * A request that is not in this session's own events (a fork taken while its parent waited) is
 * rebuilt from the state: the call as the engine holds it, an approver to decide.
 */
function fromState(state: RunState, callId: string): EventPayload<'approval.requested'> | null {
  const call = state.calls.find((c) => c.id === callId);
  if (!call) return null;
  // A held result's row without its diff: the approver still sees the call and decides on it.
  return { callId, kind: call.held ? 'effect' : 'tool', tool: call.name, args: call.args, role: 'approver' };
}

/**
 * A breaker's approval that was not approved (rejected, cancelled, or expired without `approve`)
 * cancels the run: the session a breaker paused never goes on unasked. The API asks the whole run
 * to cancel when a person rejects; this ends the paused session whichever way it was refused.
 */
function decidedEvents(row: ApprovalDecisionRow, callId: string, clock: Clock): NewEvent[] {
  const events = decisionEvents(row, callId, clock);
  const approved = events[0]?.type === 'approval.decided' && events[0].payload.approved;
  if (row.kind !== 'breaker' || approved || events.some((e) => e.type === 'run.finished')) return events;
  const by = row.decidedBy ? ` by ${row.decidedBy}` : '';
  return [...events, createEvent('run.finished', { status: 'cancelled', error: `a breaker paused the session and resuming it was refused${by}` }, clock)];
}

function decisionEvents(row: ApprovalDecisionRow, callId: string, clock: Clock): NewEvent[] {
  const by = row.decidedBy ?? undefined;
  const comment = row.comment ?? undefined;
  switch (row.status) {
    case 'approved':
      return [
        createEvent('approval.decided', { callId, approved: true, by, comment, ...(row.editedArgs ? { editedArgs: row.editedArgs as never } : {}) }, clock),
      ];
    case 'rejected':
      return [createEvent('approval.decided', { callId, approved: false, by, comment: comment ?? 'no reason given' }, clock)];
    case 'cancelled':
      return [createEvent('approval.decided', { callId, approved: false, by: 'system', comment: comment ?? 'the approval was cancelled' }, clock)];
    default: {
      // expired: the policy's outcome applies.
      const why = comment ?? 'nobody decided before the approval expired';
      if (row.expiryOutcome === 'approve') return [createEvent('approval.decided', { callId, approved: true, by: 'expiry', comment: why }, clock)];
      const refused = createEvent('approval.decided', { callId, approved: false, by: 'expiry', comment: why }, clock);
      if (row.expiryOutcome !== 'fail') return [refused];
      return [refused, createEvent('run.finished', { status: 'failed', error: `the approval expired: ${why}` }, clock)];
    }
  }
}

/**
 * Reads where the approval wait on `callId` stands. Null when the latest request is about another
 * call and the state cannot stand in for it (the wait then only ends by cancellation).
 */
export async function approvalDecision(db: Queryable, sessionId: string, callId: string, state: RunState, clock: Clock): Promise<ApprovalStanding | null> {
  const row = await readApprovalDecision(db, sessionId, callId);
  // The engine wrote (and the store validated) the request: its payload is the call to approve.
  const requested = row.requestSeq !== null && row.payload?.callId === callId;
  // For a request in the log, only the row opened for that very event counts (a call asked about
  // twice, after an interruption, has an older decided row).
  const current = row.status !== null && (!requested || row.rowSeq === row.requestSeq);
  if (!current) {
    if (requested) return { kind: 'missing', requestSeq: row.requestSeq!, payload: row.payload as EventPayload<'approval.requested'> };
    const payload = fromState(state, callId);
    return payload ? { kind: 'missing', requestSeq: state.lastSeq, payload } : null;
  }
  if (row.status === 'pending') return { kind: 'pending' };
  return { kind: 'decided', events: decidedEvents(row, callId, clock), edited: editedOf(row, callId) };
}

/** The edited call of an approved tool approval (an effect's held result runs as recorded, never edited). */
function editedOf(row: ApprovalDecisionRow, callId: string): EditedDecision | null {
  if (row.status !== 'approved' || !row.editedArgs || row.kind !== 'tool' || !row.approvalId || !row.teamId) return null;
  return {
    approvalId: row.approvalId,
    teamId: row.teamId,
    callId,
    tool: row.tool ?? '',
    args: row.editedArgs as ToolArgs,
    decidedById: row.decidedById,
    decidedBy: row.decidedBy,
    deciderRole: row.deciderRole,
  };
}
