import { createHash } from 'node:crypto';
import { appendAudit, canonicalJson, insertShadowDisagreement, type Db } from '@looplane/db';
import type { ToolInvocation } from '@looplane/engine';
import type { Decision } from '@looplane/policy';
import type { Logger } from 'pino';

/** The version a call was decided under, as the disagreement names it (0: the built-in default). */
interface DecidedUnder {
  version: number;
  versionId: string | null;
}

/** One live call that the shadow version decided otherwise than the active one. */
export interface Disagreement {
  teamId: string;
  runId: string;
  sessionId: string;
  agentId: string | null;
  /** The session seq of the call's `policy.decided` event (null when it is not known). */
  seq: number | null;
  call: ToolInvocation;
  shadowId: string;
  active: DecidedUnder & { decision: Decision };
  shadow: DecidedUnder & { decision: Decision };
}

/** Cap on the arguments copied into an audit row (the exact call is in the run's events). */
const MAX_AUDIT_ARGS = 4096;

/**
 * A call's identity: its session, its id and what it asks (tool and canonical arguments). A
 * retried step decides the same call again and gets the same key; an approver's edit of the
 * arguments is a new call, decided and compared again.
 */
function callKey(sessionId: string, call: Pick<ToolInvocation, 'callId' | 'name' | 'args'>): string {
  const what = createHash('sha256')
    .update(canonicalJson({ tool: call.name, args: call.args }))
    .digest('hex');
  return `${sessionId}:${call.callId}:${what}`;
}

/** Whether the shadow decides a call otherwise: another outcome, or the same outcome by another rule. */
export function disagrees(active: Decision, shadow: Decision): boolean {
  return active.outcome !== shadow.outcome || active.ruleId !== shadow.ruleId;
}

function brief(under: DecidedUnder & { decision: Decision }) {
  const { decision } = under;
  return {
    version: under.version,
    versionId: under.versionId,
    outcome: decision.outcome,
    ruleId: decision.ruleId,
    reason: decision.reason,
    ...(decision.approverRole ? { approverRole: decision.approverRole } : {}),
  };
}

/**
 * Records shadow disagreements exactly once per call: the row (unique on {@link callKey}) and its
 * `policy.shadow_disagreed` audit row commit together, or neither does; a second record of the
 * same call (a retried step, a worker that crashed before its `policy.decided` was durable)
 * inserts nothing and appends nothing. The caller awaits it before the decision is recorded, so
 * a crash can only lead to a retry that finds the row, never to a decided call without it.
 * Recording never fails the call: an error is logged, and the call goes on as the active
 * version decided.
 */
export class ShadowDisagreements {
  constructor(private readonly options: { db: Db; logger: Logger; notify?: (teamId: string, runId: string, tool: string) => Promise<unknown> }) {}

  /** Resolves once the disagreement is durable (or could not be written, which is logged). Never rejects. */
  async record(d: Disagreement): Promise<void> {
    try {
      const written = await this.options.db.$transaction(async (tx) => {
        const inserted = await insertShadowDisagreement(tx, {
          teamId: d.teamId,
          shadowId: d.shadowId,
          callKey: callKey(d.sessionId, d.call),
          runId: d.runId,
          sessionId: d.sessionId,
          callId: d.call.callId,
          seq: d.seq,
          tool: d.call.name,
          activeVersion: d.active.version,
          activeOutcome: d.active.decision.outcome,
          activeRuleId: d.active.decision.ruleId,
          shadowVersion: d.shadow.version,
          shadowOutcome: d.shadow.decision.outcome,
          shadowRuleId: d.shadow.decision.ruleId,
        });
        if (!inserted) return false;
        const args = JSON.stringify(d.call.args);
        await appendAudit(tx, {
          teamId: d.teamId,
          actor: { type: 'system', name: `run:${d.runId}` },
          action: 'policy.shadow_disagreed',
          targetType: 'run',
          targetId: d.runId,
          data: {
            sessionId: d.sessionId,
            agentId: d.agentId,
            callId: d.call.callId,
            seq: d.seq,
            tool: d.call.name,
            args: args.length <= MAX_AUDIT_ARGS ? d.call.args : `${args.slice(0, MAX_AUDIT_ARGS)}…`,
            shadowId: d.shadowId,
            active: brief(d.active),
            shadow: brief(d.shadow),
          },
        });
        return true;
      });
      // After the commit; a lost notice only delays the page's count.
      if (written)
        void this.options
          .notify?.(d.teamId, d.runId, d.call.name)
          .catch((error: unknown) => this.options.logger.warn({ err: error, teamId: d.teamId }, 'shadow disagreement notice not published'));
    } catch (error) {
      this.options.logger.error(
        { err: error, runId: d.runId, sessionId: d.sessionId, callId: d.call.callId },
        'a shadow policy disagreement could not be recorded',
      );
    }
  }
}
