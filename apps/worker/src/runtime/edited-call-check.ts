import { createEvent, type Clock, type NewEvent } from '@looplane/engine';
import { roleAtLeast } from '@looplane/shared';
import type { SessionPolicy } from '../ports/team-policy';
import type { EditedDecision } from './approval-decision';

/**
 * Defense in depth for an approver's edited arguments: `approvals.decide` decides the edited call
 * by the policy before it records the approval, and the worker decides it again before it runs,
 * with the team's active policy and the decider's current role. So a row changed behind the API
 * (or a policy tightened, or a decider demoted, in between) cannot run an edited call the policy
 * would not let that person approve. The re-decision goes to the audit chain like every call's
 * decision. Returns the events that end the wait: the approval as decided, followed by a
 * `policy.decided` deny when the edited call may not run (the model is told why; nothing runs),
 * or by a new request for the edited call when four eyes must see it (below).
 *
 * Four eyes and an edit: whoever rewrites the arguments wrote the call that would run, so under
 * `approvals.fourEyes` she may not be the only one to approve it (`rm -rf build` turned into
 * `rm -rf src` and approved by the same hand is her own instruction, approved by herself). When the
 * policy still holds the edited call for approval, it is asked again as a call of its own: a new
 * `approval.requested` with the edited arguments, whose row names the editor among the people it
 * follows from (`instructionGivers`), so another approver must decide it. Refusing the editor's
 * decision instead would leave no way through at all: the next approver to make the same edit would
 * be its author too. An edit the policy allows outright runs, as any call the policy allows does.
 */
export async function recheckEditedCall(
  port: SessionPolicy,
  edited: EditedDecision,
  decided: NewEvent[],
  clock: Clock,
  fourEyes: boolean,
): Promise<NewEvent[]> {
  const verdict = await port.evaluate({ callId: edited.callId, name: edited.tool, args: edited.args });
  await port.recorded(edited.callId);
  const rule = verdict.ruleId ? `policy rule "${verdict.ruleId}"` : 'the policy';
  const ruleId = verdict.ruleId ? { ruleId: verdict.ruleId } : {};
  let refusal: string | null = null;
  if (verdict.decision === 'deny') {
    refusal = `the approver's edited arguments are denied by ${rule}: ${verdict.reason}`;
  } else if (verdict.decision === 'require_approval' && !(edited.deciderRole && roleAtLeast(edited.deciderRole, verdict.role))) {
    const who = edited.decidedBy ?? 'the approver';
    const held = edited.deciderRole ? `is ${edited.deciderRole}` : 'is no longer a member of the team';
    refusal = `the approver's edited call needs the ${verdict.role} role to approve (${rule}); ${who} ${held}`;
  }
  if (refusal) return [...decided, createEvent('policy.decided', { callId: edited.callId, decision: 'deny', reason: refusal, ...ruleId }, clock)];
  if (verdict.decision !== 'require_approval' || !fourEyes) return decided;
  const who = edited.decidedBy ?? 'an approver';
  const reason = `four-eyes: ${who} edited the arguments, so another approver must approve the edited call (${rule}${verdict.reason ? `: ${verdict.reason}` : ''})`;
  return [
    ...decided,
    createEvent('policy.decided', { callId: edited.callId, decision: 'require_approval', role: verdict.role, reason, ...ruleId }, clock),
    createEvent(
      'approval.requested',
      {
        callId: edited.callId,
        kind: 'tool',
        tool: edited.tool,
        args: edited.args,
        role: verdict.role,
        reason,
        ...(verdict.risk ? { risk: verdict.risk } : {}),
        ...ruleId,
      },
      clock,
    ),
  ];
}
