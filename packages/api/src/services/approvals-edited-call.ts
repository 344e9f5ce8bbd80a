import { appendAudit, type Tx } from '@looplane/db';
import { DEFAULT_RULE, evaluate, type Decision } from '@looplane/policy';
import { AppError, roleAtLeast } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import type { Viewer } from './approvals-query.service';
import { activePolicyVersion } from './policy-gates';

/** The approval whose arguments an approver edited, as much of its row as the decision needs. */
export interface EditedApproval {
  id: string;
  runId: string;
  sessionId: string;
  tool: string | null;
  toolCallId: string | null;
}

/** Cap on the arguments copied into the audit row (the decision's row keeps them whole). */
const MAX_AUDIT_ARGS = 4096;

function auditArgs(args: Record<string, unknown>): Record<string, unknown> | string {
  const text = JSON.stringify(args);
  return text.length <= MAX_AUDIT_ARGS ? args : `${text.slice(0, MAX_AUDIT_ARGS)}…`;
}

/** Why the edited call may not be approved by this viewer, or null when it may. */
function refusalOf(decision: Decision, viewer: Viewer): string | null {
  const rule = decision.ruleId === DEFAULT_RULE ? "the policy's default" : `policy rule "${decision.ruleId}"`;
  if (decision.outcome === 'deny') return `The team policy denies the edited call (${rule}): ${decision.reason}`;
  const needed = decision.approverRole;
  if (decision.outcome === 'require_approval' && needed && !roleAtLeast(viewer.role, needed)) {
    return `The edited call needs the ${needed} role to approve (${rule}: ${decision.reason}); you are ${viewer.role}`;
  }
  return null;
}

/**
 * Decides an approver's edited arguments as a new call, by the team's active policy, exactly as
 * the worker decides the model's calls: the approval covered the call as asked, not whatever the
 * approver turns it into. `deny` refuses the decision with the rule's reason; a
 * `require_approval` whose role the decider does not hold refuses it naming that role; `allow`,
 * or an approval the decider may give, lets it through. Either way the edited call's decision is
 * an audit row (`policy.decided`, `edited: true`) in `tx`, so a refused edit is on record too.
 * Returns the refusal (the caller commits the row and changes nothing else), or null.
 */
export async function decideEditedCall(
  tx: Tx,
  context: { teamId: string; actor: PrincipalActor; viewer: Viewer; ip: string | null },
  approval: EditedApproval,
  args: Record<string, unknown>,
): Promise<AppError | null> {
  const policy = await activePolicyVersion(tx, context.teamId);
  if (!policy.document) {
    return new AppError('PRECONDITION_FAILED', "The team's active policy does not validate, so no edited call can be approved; fix it on the Policies page");
  }
  const tool = approval.tool ?? '';
  const decision = evaluate(policy.document, { tool, args });
  const refusal = refusalOf(decision, context.viewer);
  await appendAudit(tx, {
    teamId: context.teamId,
    actor: context.actor,
    ip: context.ip,
    action: 'policy.decided',
    targetType: 'approval',
    targetId: approval.id,
    data: {
      edited: true,
      runId: approval.runId,
      sessionId: approval.sessionId,
      callId: approval.toolCallId,
      tool,
      args: auditArgs(args),
      outcome: decision.outcome,
      ruleId: decision.ruleId,
      reason: decision.reason,
      risk: decision.risk,
      ...(decision.approverRole ? { approverRole: decision.approverRole } : {}),
      deciderRole: context.viewer.role,
      policyVersionId: policy.versionId,
      policyVersion: policy.version,
      ...(refusal ? { refused: refusal } : {}),
    },
  });
  return refusal ? new AppError('FORBIDDEN', refusal) : null;
}
