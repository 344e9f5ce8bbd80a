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
 * `policy.decided` deny when the edited call may not run (the model is told why; nothing runs).
 */
export async function recheckEditedCall(port: SessionPolicy, edited: EditedDecision, decided: NewEvent[], clock: Clock): Promise<NewEvent[]> {
  const verdict = await port.evaluate({ callId: edited.callId, name: edited.tool, args: edited.args });
  await port.recorded(edited.callId);
  const rule = verdict.ruleId ? `policy rule "${verdict.ruleId}"` : 'the policy';
  let refusal: string | null = null;
  if (verdict.decision === 'deny') {
    refusal = `the approver's edited arguments are denied by ${rule}: ${verdict.reason}`;
  } else if (verdict.decision === 'require_approval' && !(edited.deciderRole && roleAtLeast(edited.deciderRole, verdict.role))) {
    const who = edited.decidedBy ?? 'the approver';
    const held = edited.deciderRole ? `is ${edited.deciderRole}` : 'is no longer a member of the team';
    refusal = `the approver's edited call needs the ${verdict.role} role to approve (${rule}); ${who} ${held}`;
  }
  if (!refusal) return decided;
  return [
    ...decided,
    createEvent('policy.decided', { callId: edited.callId, decision: 'deny', reason: refusal, ...(verdict.ruleId ? { ruleId: verdict.ruleId } : {}) }, clock),
  ];
}
