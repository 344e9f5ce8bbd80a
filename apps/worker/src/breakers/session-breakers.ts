import type { Queryable } from '@looplane/db';
import { DELEGATE, type PolicyDecision, type PolicyPort, type RunState } from '@looplane/engine';
import { checkBreakers, type BreakerVerdict } from '@looplane/policy';
import type { PolicyAudit } from '../ports/policy-audit';
import type { ActivePolicy } from '../ports/policy-versions';
import type { PolicySubject, TeamPolicies } from '../ports/team-policy';
import { readGraphRunMeasures } from './graph-run-measures';

export interface BreakerDeps {
  policies: TeamPolicies;
  audit: PolicyAudit;
}

export interface SessionBreakerOptions {
  subject: PolicySubject;
  graphRun: boolean;
  /** The session's live state (the fold the engine drives): its breaker windows. */
  state: () => RunState | null;
  /** Reads that see this session's buffered appends (a delegation just sent counts as in flight). */
  db: Queryable;
  /**
   * The active version the team policy decided `callId` under: the breakers judge the call by
   * the same version as its rules did. Null (or absent): the current version is read.
   */
  decidedUnder?: (callId: string) => ActivePolicy | null;
}

/**
 * The breakers of one session, around its policy port: a call the policy allows is checked
 * against the team's `breakers` section before it runs. A trip is an audit row (`breaker.tripped`,
 * durable before the engine records the trip and the approval that pauses the session); the
 * engine then parks the session on that approval like any held call. What the policy refuses or
 * holds for an approver is passed on as it is: a person looks at it anyway. The `breakers`
 * section is the one of the version the call was decided under, read when it was decided, so
 * a version saved before the call binds its breakers as it binds its rules.
 */
export function withBreakers(inner: PolicyPort, deps: BreakerDeps, options: SessionBreakerOptions): PolicyPort {
  return {
    async evaluate(call, callOptions): Promise<PolicyDecision> {
      const decision = await inner.evaluate(call, callOptions);
      const state = options.state();
      if (decision.decision !== 'allow' || !state) return decision;
      const policy = options.decidedUnder?.(call.callId) ?? (await deps.policies.active(options.subject.teamId));
      const config = policy.document.breakers;
      // The end of the spend window is the log's latest event, so the same log decides the same.
      const nowMs = state.updatedAt ? Date.parse(state.updatedAt) : 0;
      const w = state.breakers;
      const graphRun = options.graphRun
        ? await readGraphRunMeasures(options.db, {
            runId: options.subject.runId,
            nowMs,
            spendSinceMs: w.restartedAt.spendRate,
            inFlightSinceMs: config.fanOut.enabled && call.name === DELEGATE ? w.restartedAt.fanOut : null,
          })
        : undefined;
      const verdict = checkBreakers(config, w, { call, turn: state.turn, nowMs, ...(graphRun ? { graphRun } : {}) });
      if (!verdict) return decision;
      await recordTrip(deps.audit, options.subject, call.callId, call.name, verdict, policy.versionId);
      return { ...decision, breaker: verdict };
    },
  };
}

function recordTrip(
  audit: PolicyAudit,
  subject: PolicySubject,
  callId: string,
  tool: string,
  verdict: BreakerVerdict,
  policyVersionId: string | null,
): Promise<void> {
  return audit.record({
    teamId: subject.teamId,
    actor: { type: 'system', name: `run:${subject.runId}` },
    action: 'breaker.tripped',
    targetType: 'run',
    targetId: subject.runId,
    data: {
      sessionId: subject.sessionId,
      agentId: subject.agentId,
      callId,
      tool,
      breaker: verdict.name,
      scope: verdict.scope,
      observed: verdict.observed,
      limit: verdict.limit,
      unit: verdict.unit,
      window: verdict.window,
      reason: verdict.reason,
      policyVersionId,
    },
  });
}
