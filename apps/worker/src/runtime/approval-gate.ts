import { approvalRunOwner, countPendingApprovals, insertPendingApproval, instructionGivers, type Queryable } from '@looplane/db';
import type { Clock, EventPayload } from '@looplane/engine';
import type { LiveBus } from '@looplane/queue';
import type { Logger } from 'pino';
import type { TeamPolicies } from '../ports/team-policy';

/** An `approval.requested` event of a session: the call, and the seq the row is keyed by. */
export interface ApprovalRequest {
  runId: string;
  sessionId: string;
  requestSeq: number;
  payload: EventPayload<'approval.requested'>;
}

const MINUTE = 60_000;

/**
 * The durable side of an approval wait: the worker holding the session turns its
 * `approval.requested` event into a pending `Approval` row (the inbox's item), with the expiry
 * and escalation the team's policy sets, then tells the team's dashboards the pending count.
 */
export class ApprovalGate {
  constructor(private readonly options: { pool: Queryable; policies: TeamPolicies; bus: LiveBus; clock: Clock; logger: Logger }) {}

  /** Inserts the pending row for `request` unless it exists. Returns whether it was inserted. */
  async open(request: ApprovalRequest, db: Queryable = this.options.pool): Promise<boolean> {
    const run = await approvalRunOwner(db, request.runId);
    if (!run) return false;
    const policy = await this.options.policies.active(run.teamId);
    const rules = policy.document.approvals;
    const now = this.options.clock.now();
    const { payload } = request;
    // Credited to whoever gave the instructions the call follows from, not only the run's creator.
    const givers = await instructionGivers(db, request.sessionId, request.requestSeq, run.createdById);
    const escalates = rules.escalateAfterMinutes !== undefined && rules.escalateToRole !== undefined && rules.escalateToRole !== payload.role;
    // Idempotent: a retried job (or a second worker after a crash) finds the row already there.
    const inserted = await insertPendingApproval(db, {
      teamId: run.teamId,
      runId: request.runId,
      sessionId: request.sessionId,
      // An interrupted call's re-run is a tool approval; an effect's row keeps the held result for its diff.
      kind: payload.kind === 'effect' || payload.kind === 'breaker' ? payload.kind : 'tool',
      requestSeq: request.requestSeq,
      toolCallId: payload.callId,
      tool: payload.tool,
      args: payload.args,
      risk: payload.risk ?? 'medium',
      policyRuleId: payload.ruleId ?? null,
      policyVersionId: policy.versionId,
      requiredRole: payload.role,
      fourEyes: rules.fourEyes,
      requestedById: givers.requestedById,
      instructedByIds: givers.instructedByIds,
      expiresAt: new Date(now + rules.expiresAfterMinutes * MINUTE),
      expiryOutcome: rules.expiryOutcome,
      escalateAt: escalates ? new Date(now + rules.escalateAfterMinutes! * MINUTE) : null,
      escalateToRole: escalates ? rules.escalateToRole! : null,
      createdAt: new Date(now),
      held: payload.held ? payload.held : null,
    });
    if (!inserted) return false;
    await this.publishCount(run.teamId);
    return true;
  }

  /** Whether the team's active policy asks for four eyes (nobody decides a call that follows from their own instruction). */
  async fourEyes(teamId: string): Promise<boolean> {
    return (await this.options.policies.active(teamId)).document.approvals.fourEyes;
  }

  /** Tells the team's dashboards how many approvals are pending (fire-and-forget, like every live notice). */
  async publishCount(teamId: string): Promise<void> {
    try {
      const pending = await countPendingApprovals(this.options.pool, teamId);
      await this.options.bus.publishTeamActivity(teamId, { kind: 'approvals.count', pending });
    } catch (error) {
      this.options.logger.warn({ err: error, teamId }, 'cannot publish the pending approval count');
    }
  }
}
