import type { AuditEntry, Queryable } from '@looplane/db';
import type { ModelPort, PolicyDecision, PolicyPort, ToolInvocation } from '@looplane/engine';
import { evaluate, isEndpointAllowed, toPolicyDecision } from '@looplane/policy';
import type { Logger } from 'pino';
import { failingModel } from './model-factory';
import type { PolicyAudit } from './policy-audit';
import { PolicyVersions, type ActivePolicy, type TeamPolicySet } from './policy-versions';
import { disagrees, type ShadowDisagreements } from './shadow-disagreements';

/** A session's policy port, and the wait for a call's decision to be in the audit chain. */
export interface SessionPolicy extends PolicyPort {
  recorded(callId: string): Promise<void>;
  /**
   * The active version the session's latest decision of `callId` was made under (null: another
   * call was decided since), so what else judges that call (the breakers) uses the same version.
   */
  decidedUnder(callId: string): ActivePolicy | null;
}

/** Who makes the calls a port judges: one session of one run. */
export interface PolicySubject {
  runId: string;
  sessionId: string;
  teamId: string;
  agentId: string | null;
  /** The seq the session's next event gets (the call's `policy.decided`), for the shadow's record. */
  nextSeq?: () => number | null;
  /**
   * Where the session appends the audit row of a call it may run: its write unit, so the row
   * commits in the statement that writes `policy.decided` (WriteUnit.audit); `settle` makes queued
   * rows durable now. Without it, the worker's group-committed PolicyAudit.
   */
  audit?: { append: (entry: AuditEntry) => Promise<void>; settle: () => Promise<void> };
}

/** Cap on the arguments copied into an audit row (the exact call is in the run's events). */
const MAX_AUDIT_ARGS = 4096;

function auditArgs(args: Record<string, unknown>): Record<string, unknown> | string {
  const text = JSON.stringify(args);
  return text.length <= MAX_AUDIT_ARGS ? args : `${text.slice(0, MAX_AUDIT_ARGS)}…`;
}

/**
 * The worker's policy port: each tool call is judged by the team's active policy version (the
 * package's `defaultPolicy` while a team has none), and every decision is written to the team's
 * audit chain (group-committed, see {@link PolicyAudit}). A call the policy allows waits for its
 * audit row before it runs (`recorded`); the engine may buffer or commit its `policy.decided`
 * event before the row is durable. Every decision reads the team's current version
 * ({@link PolicyVersions}): a version saved before the decision is the one it uses.
 */
export class TeamPolicies {
  private readonly versions: PolicyVersions;

  constructor(private readonly options: { pool: Queryable; audit: PolicyAudit; logger: Logger; shadow?: ShadowDisagreements }) {
    this.versions = new PolicyVersions({ pool: options.pool, logger: options.logger });
  }

  /** The team's active policy, as it is now. */
  async active(teamId: string): Promise<ActivePolicy> {
    return (await this.policies(teamId)).active;
  }

  /** The team's active and shadow versions, read together, as they are now. */
  policies(teamId: string): Promise<TeamPolicySet> {
    return this.versions.current(teamId);
  }

  /**
   * The engine's policy port for one session. An `allow` is returned as soon as it is decided and
   * its audit row written alongside (the session's own commit of `policy.decided` runs at the same
   * time); the tool port awaits `recorded(callId)` before the call's side effect, so no call runs
   * before its decision is in the chain. Other outcomes wait for their row before returning.
   */
  portFor(subject: PolicySubject): SessionPolicy {
    const writing = new Map<string, Promise<void>>();
    // A session decides one call at a time: the latest decision's version is all that is kept.
    let latest: { callId: string; policy: ActivePolicy } | null = null;
    return {
      evaluate: async (call) => {
        const { decision, policy } = await this.decide(subject, call, writing);
        latest = { callId: call.callId, policy };
        return decision;
      },
      recorded: async (callId) => {
        const row = writing.get(callId);
        writing.delete(callId);
        if (row && subject.audit) await subject.audit.settle();
        await row;
      },
      decidedUnder: (callId) => (latest?.callId === callId ? latest.policy : null),
    };
  }

  /**
   * The session's model port, checked against the team's active policy before every call: an
   * endpoint the policy no longer allows (`models.allowedEndpoints`, changed mid-run) is not
   * called. The call fails as a non-retryable provider error, so the engine records
   * `model.failed` naming the rule, settles the budget and fails the run. Failing rather than
   * waiting: nothing would wake a run when the policy changes back, and an operator can resume
   * the session (sessions.resume) once an admin allows the endpoint again.
   */
  gateModel(teamId: string, endpointName: string, model: ModelPort): ModelPort {
    return {
      complete: async (request, options) => {
        const { document } = await this.active(teamId);
        if (isEndpointAllowed(document, endpointName)) return model.complete(request, options);
        const refusal = `not called: the team policy does not allow the model endpoint ${endpointName} (models.allowedEndpoints)`;
        return failingModel('bad_request', refusal).complete(request, options);
      },
    };
  }

  private async decide(
    subject: PolicySubject,
    call: ToolInvocation,
    writing: Map<string, Promise<void>>,
  ): Promise<{ decision: PolicyDecision; policy: ActivePolicy }> {
    const policies = await this.policies(subject.teamId);
    const policy = policies.active;
    const decision = evaluate(policy.document, { tool: call.name, args: call.args });
    const shadowed = this.shadowDecide(subject, call, policies, decision);
    // A call that may run: its row rides with the session's next flush. Any other outcome waits
    // for its row here, through the worker's own group commit.
    const append = decision.outcome === 'allow' && subject.audit ? subject.audit.append : (entry: AuditEntry) => this.options.audit.record(entry);
    const row = append({
      teamId: subject.teamId,
      actor: { type: 'system', name: `run:${subject.runId}` },
      action: 'policy.decided',
      targetType: 'run',
      targetId: subject.runId,
      data: {
        sessionId: subject.sessionId,
        agentId: subject.agentId,
        callId: call.callId,
        tool: call.name,
        args: auditArgs(call.args),
        outcome: decision.outcome,
        ruleId: decision.ruleId,
        reason: decision.reason,
        risk: decision.risk,
        ...(decision.approverRole ? { approverRole: decision.approverRole } : {}),
        ...(decision.isolation ? { isolation: decision.isolation } : {}),
        policyVersionId: policy.versionId,
        policyVersion: policy.version,
      },
    });
    if (decision.outcome !== 'allow') {
      await Promise.all([row, shadowed]);
      return { decision: toPolicyDecision(decision), policy };
    }
    await shadowed;
    // Awaited by the tool port before the side effect; a call that never runs (budget used up,
    // the session ended) does not await it, so a failed write is logged here, never lost silently.
    const recorded = row.catch((error: unknown) => {
      this.options.logger.error({ err: error, runId: subject.runId, callId: call.callId }, 'the audit row of a policy decision could not be written');
      throw error;
    });
    recorded.catch(() => undefined); // not an unhandled rejection while no one awaits it yet
    writing.set(call.callId, recorded);
    return { decision: toPolicyDecision(decision), policy };
  }

  /**
   * Decides the call under the shadow version too. Only a disagreement costs anything beyond
   * the evaluation: its record, awaited before the decision is returned so that it is durable
   * before the call's `policy.decided` (see {@link ShadowDisagreements}). It never rejects and
   * never changes the decision.
   */
  private shadowDecide(subject: PolicySubject, call: ToolInvocation, policies: TeamPolicySet, decision: ReturnType<typeof evaluate>): Promise<void> | null {
    const { shadow, active } = policies;
    if (!shadow || !this.options.shadow) return null;
    let shadowDecision: ReturnType<typeof evaluate>;
    try {
      shadowDecision = evaluate(shadow.document, { tool: call.name, args: call.args });
    } catch (error) {
      this.options.logger.error({ err: error, runId: subject.runId, callId: call.callId }, 'the shadow policy could not decide a call');
      return null;
    }
    if (!disagrees(decision, shadowDecision)) return null;
    return this.options.shadow.record({
      teamId: subject.teamId,
      runId: subject.runId,
      sessionId: subject.sessionId,
      agentId: subject.agentId,
      seq: subject.nextSeq?.() ?? null,
      call,
      shadowId: shadow.shadowId,
      active: { version: active.version ?? 0, versionId: active.versionId, decision },
      shadow: { version: shadow.version, versionId: shadow.versionId, decision: shadowDecision },
    });
  }
}
