import type { PolicyDecision, PolicyPort, ToolInvocation } from '@looplane/engine';
import type { PolicyDocument } from '../document/policy-schema';
import type { Decision, PolicyContext } from './decision';
import { evaluate } from './evaluate';

/**
 * Maps a decision onto the engine's `PolicyDecision`. The engine's risk scale stops at `high`, so
 * `critical` is passed as `high` (the reason still says why).
 */
export function toPolicyDecision(decision: Decision): PolicyDecision {
  switch (decision.outcome) {
    case 'allow':
      return { decision: 'allow', ruleId: decision.ruleId, ...(decision.isolation ? { isolation: decision.isolation } : {}) };
    case 'deny':
      return { decision: 'deny', reason: decision.reason, ruleId: decision.ruleId };
    case 'require_approval':
      return {
        decision: 'require_approval',
        role: decision.approverRole ?? 'approver',
        reason: decision.reason,
        ruleId: decision.ruleId,
        risk: decision.risk === 'critical' ? 'high' : decision.risk,
        ...(decision.isolation ? { isolation: decision.isolation } : {}),
      };
  }
}

/** A `PolicyPort` for the engine that decides every call with one policy document. */
export function policyPortFrom(document: PolicyDocument, context: PolicyContext = {}): PolicyPort {
  return {
    async evaluate(call: ToolInvocation): Promise<PolicyDecision> {
      return toPolicyDecision(evaluate(document, { tool: call.name, args: call.args }, context));
    },
  };
}
