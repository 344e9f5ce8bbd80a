import type { Queryable } from '@looplane/db';
import type { ModelPort, PolicyDecision, PolicyPort, ToolInvocation } from '@looplane/engine';
import { defaultPolicy, evaluate, isEndpointAllowed, policyDocumentSchema, toPolicyDecision, type PolicyDocument } from '@looplane/policy';
import type { Logger } from 'pino';
import { failingModel } from './model-factory';
import type { PolicyAudit } from './policy-audit';
import { disagrees, type ShadowDisagreements } from './shadow-disagreements';

/** The policy a team's calls are judged by, and the version row it came from (null: the built-in default). */
export interface ActivePolicy {
  document: PolicyDocument;
  versionId: string | null;
  version: number | null;
}

/** A saved version every call is also decided under, never enforced (`shadowId`: which setting of it). */
interface ShadowPolicy {
  document: PolicyDocument;
  versionId: string | null;
  version: number;
  shadowId: string;
}

/** What a team's calls are decided under: the active version, and the shadow when one is set. */
export interface TeamPolicySet {
  active: ActivePolicy;
  shadow: ShadowPolicy | null;
}

/** A session's policy port, and the wait for a call's decision to be in the audit chain. */
export interface SessionPolicy extends PolicyPort {
  recorded(callId: string): Promise<void>;
}

/** Who makes the calls a port judges: one session of one run. */
export interface PolicySubject {
  runId: string;
  sessionId: string;
  teamId: string;
  agentId: string | null;
  /** The seq the session's next event gets (the call's `policy.decided`), for the shadow's record. */
  nextSeq?: () => number | null;
}

// The team's active version: the version row its policy points at (the most recently changed
// policy if a team ever has several).
const ACTIVE_SQL = `
SELECT pv.id, pv.version, pv.document FROM "Policy" p
JOIN "PolicyVersion" pv ON pv."policyId" = p.id AND pv.version = p."activeVersion"
WHERE p."teamId" = $1 ORDER BY p."updatedAt" DESC LIMIT 1`;

// The active version and the shadow, in one read (the same policy row as ACTIVE_SQL). Version 0
// has no row: the built-in default.
const POLICIES_SQL = `
SELECT p."activeVersion", a.id AS "activeId", a.document AS "activeDocument",
       p."shadowVersion", p."shadowId", s.id AS "shadowVersionId", s.document AS "shadowDocument"
FROM "Policy" p
LEFT JOIN "PolicyVersion" a ON a."policyId" = p.id AND a.version = p."activeVersion"
LEFT JOIN "PolicyVersion" s ON s."policyId" = p.id AND s.version = p."shadowVersion"
WHERE p."teamId" = $1 ORDER BY p."updatedAt" DESC LIMIT 1`;

/** What a stored document that no longer validates becomes: nothing runs unasked, nothing is allowed. */
const DENY_ALL = policyDocumentSchema.parse({ version: 1, name: 'unreadable', default: 'deny' });

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
 * event before the row is durable. Active versions are cached briefly per team, so a call
 * costs no read in the common case and a newly activated version applies within `ttlMs`.
 */
export class TeamPolicies {
  private readonly cache = new Map<string, { loadedAt: number; policy: Promise<TeamPolicySet> }>();
  private readonly ttlMs: number;

  constructor(private readonly options: { pool: Queryable; audit: PolicyAudit; logger: Logger; ttlMs?: number; shadow?: ShadowDisagreements }) {
    this.ttlMs = options.ttlMs ?? 2000;
  }

  /** The team's active policy (cached for `ttlMs`). */
  async active(teamId: string): Promise<ActivePolicy> {
    return (await this.policies(teamId)).active;
  }

  /** The team's active and shadow versions, read together and cached together for `ttlMs`. */
  policies(teamId: string): Promise<TeamPolicySet> {
    const cached = this.cache.get(teamId);
    if (cached && Date.now() - cached.loadedAt < this.ttlMs) return cached.policy;
    const policy = this.load(teamId);
    this.cache.set(teamId, { loadedAt: Date.now(), policy });
    // A failed read is not cached: the next call asks again.
    policy.catch(() => this.cache.delete(teamId));
    return policy;
  }

  /**
   * The engine's policy port for one session. An `allow` is returned as soon as it is decided and
   * its audit row written alongside (the session's own commit of `policy.decided` runs at the same
   * time); the tool port awaits `recorded(callId)` before the call's side effect, so no call runs
   * before its decision is in the chain. Other outcomes wait for their row before returning.
   */
  portFor(subject: PolicySubject): SessionPolicy {
    const writing = new Map<string, Promise<void>>();
    return {
      evaluate: (call) => this.decide(subject, call, writing),
      recorded: async (callId) => {
        const row = writing.get(callId);
        writing.delete(callId);
        await row;
      },
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

  private async decide(subject: PolicySubject, call: ToolInvocation, writing: Map<string, Promise<void>>): Promise<PolicyDecision> {
    const policies = await this.policies(subject.teamId);
    const policy = policies.active;
    const decision = evaluate(policy.document, { tool: call.name, args: call.args });
    const shadowed = this.shadowDecide(subject, call, policies, decision);
    const row = this.options.audit.record({
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
        policyVersionId: policy.versionId,
        policyVersion: policy.version,
      },
    });
    if (decision.outcome !== 'allow') {
      await Promise.all([row, shadowed]);
      return toPolicyDecision(decision);
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
    return toPolicyDecision(decision);
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

  private load(teamId: string): Promise<TeamPolicySet> {
    return readTeamPolicies(this.options.pool, teamId, this.options.logger);
  }
}

/**
 * Reads a team's active policy version (uncached): the built-in default while the team has none,
 * deny-all when the stored document no longer validates. The sandbox's egress proxy and driver
 * checks read the same document as the tool-call decisions.
 */
export async function readActivePolicy(pool: Queryable, teamId: string, logger: Logger): Promise<ActivePolicy> {
  const found = await pool.query({ name: 'looplane_active_policy_v1', text: ACTIVE_SQL, values: [teamId] });
  const row = found.rows[0] as { id: string; version: number; document: unknown } | undefined;
  if (!row) return { document: defaultPolicy, versionId: null, version: null };
  const parsed = policyDocumentSchema.safeParse(row.document);
  if (parsed.success) return { document: parsed.data, versionId: row.id, version: row.version };
  logger.error({ teamId, policyVersionId: row.id, issues: parsed.error.issues.slice(0, 5) }, 'the active policy version does not validate; denying every call');
  return { document: DENY_ALL, versionId: row.id, version: row.version };
}

/**
 * Reads a team's active version and its shadow (uncached), as {@link readActivePolicy} reads the
 * active one. A shadow whose document no longer validates is left out (logged): it decides
 * nothing, and nothing depends on it.
 */
async function readTeamPolicies(pool: Queryable, teamId: string, logger: Logger): Promise<TeamPolicySet> {
  const found = await pool.query({ name: 'looplane_team_policies_v1', text: POLICIES_SQL, values: [teamId] });
  const row = found.rows[0] as
    | {
        activeVersion: number;
        activeId: string | null;
        activeDocument: unknown;
        shadowVersion: number | null;
        shadowId: string | null;
        shadowVersionId: string | null;
        shadowDocument: unknown;
      }
    | undefined;
  if (!row) return { active: { document: defaultPolicy, versionId: null, version: null }, shadow: null };
  return { active: activeOf(row, teamId, logger), shadow: shadowOf(row, teamId, logger) };
}

function activeOf(row: { activeId: string | null; activeVersion: number; activeDocument: unknown }, teamId: string, logger: Logger): ActivePolicy {
  if (row.activeId === null) return { document: defaultPolicy, versionId: null, version: null };
  const parsed = policyDocumentSchema.safeParse(row.activeDocument);
  if (parsed.success) return { document: parsed.data, versionId: row.activeId, version: row.activeVersion };
  logger.error(
    { teamId, policyVersionId: row.activeId, issues: parsed.error.issues.slice(0, 5) },
    'the active policy version does not validate; denying every call',
  );
  return { document: DENY_ALL, versionId: row.activeId, version: row.activeVersion };
}

function shadowOf(
  row: { shadowVersion: number | null; shadowId: string | null; shadowVersionId: string | null; shadowDocument: unknown },
  teamId: string,
  logger: Logger,
): ShadowPolicy | null {
  if (row.shadowVersion === null || row.shadowId === null) return null;
  if (row.shadowVersion === 0) return { document: defaultPolicy, versionId: null, version: 0, shadowId: row.shadowId };
  if (row.shadowVersionId === null) return null;
  const parsed = policyDocumentSchema.safeParse(row.shadowDocument);
  if (parsed.success) return { document: parsed.data, versionId: row.shadowVersionId, version: row.shadowVersion, shadowId: row.shadowId };
  logger.error(
    { teamId, policyVersionId: row.shadowVersionId, issues: parsed.error.issues.slice(0, 5) },
    'the shadow policy version does not validate; it decides nothing',
  );
  return null;
}
