import type { EffectVerdict, ToolInvocation, WorkspaceEffect } from '@looplane/engine';
import { evaluateEffect, hasEffectRules, type PolicyDocument } from '@looplane/policy';
import type { EffectGate } from '@looplane/sandbox';
import type { PolicyAudit } from '../ports/policy-audit';
import type { PolicySubject } from '../ports/team-policy';

/** Files named in an effect's audit row (the run's events list up to a thousand). */
const AUDITED_PATHS = 50;

function auditedEffect(effect: WorkspaceEffect): Record<string, unknown> {
  return {
    counts: effect.counts,
    changes: effect.changes.slice(0, AUDITED_PATHS).map((c) => ({ path: c.path, kind: c.kind, ...(c.from ? { from: c.from } : {}) })),
  };
}

/**
 * The team policy's effect rules at work: for a mutating call, a gate that decides what the call
 * did before its commit is kept (see `evaluateEffect`). A result the rules do not let stand is
 * written to the team's audit chain before the call returns; results they keep leave no row
 * beyond the call's own `policy.decided` (they change nothing about what was decided).
 */
export class EffectDecisions {
  constructor(private readonly options: { audit: PolicyAudit }) {}

  /** The gate for one call under `document`; undefined when no effect rule can apply to the tool. */
  gateFor(document: PolicyDocument, policyVersionId: string | null, subject: PolicySubject, call: ToolInvocation): EffectGate | undefined {
    if (!hasEffectRules(document, call.name)) return undefined;
    return async (effect): Promise<EffectVerdict | null> => {
      const decision = evaluateEffect(document, { tool: call.name, args: call.args }, effect, { approved: call.approved === true });
      if (decision.outcome === 'allow') return null;
      await this.options.audit.record({
        teamId: subject.teamId,
        actor: { type: 'system', name: `run:${subject.runId}` },
        action: 'policy.effect_decided',
        targetType: 'run',
        targetId: subject.runId,
        data: {
          sessionId: subject.sessionId,
          agentId: subject.agentId,
          callId: call.callId,
          tool: call.name,
          outcome: decision.outcome,
          ruleId: decision.ruleId,
          reason: decision.reason,
          risk: decision.risk,
          ...(decision.approverRole ? { approverRole: decision.approverRole } : {}),
          effect: auditedEffect(effect),
          policyVersionId,
        },
      });
      return {
        decision: decision.outcome,
        reason: decision.reason,
        ruleId: decision.ruleId,
        ...(decision.approverRole ? { role: decision.approverRole } : {}),
        risk: decision.risk === 'critical' ? 'high' : decision.risk,
      };
    };
  }
}
