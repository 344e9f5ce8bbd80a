import { instructionGivers, type Queryable } from '@looplane/db';
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

const RUN_SQL = `SELECT "teamId", "createdById" FROM "Run" WHERE id = $1`;

// Idempotent: a retried job (or a second worker after a crash) finds the row already there.
// Timestamps are UTC `timestamp(3)` columns, as Prisma stores them.
const INSERT_SQL = `
INSERT INTO "Approval" (id, "teamId", "runId", "sessionId", kind, "requestSeq", "toolCallId", tool, args, risk,
  "policyRuleId", "policyVersionId", "requiredRole", "fourEyes", status, "requestedById", "expiresAt", "expiryOutcome",
  "escalateAt", "escalateToRole", "createdAt", held, "instructedByIds")
VALUES ($1, $2, $3, $4, $20::"ApprovalKind", $5, $6, $7, $8::jsonb, $9, $10, $11, $12::"Role", $13, 'pending', $14,
  $15::timestamptz AT TIME ZONE 'UTC', $16, $17::timestamptz AT TIME ZONE 'UTC', $18::"Role", $19::timestamptz AT TIME ZONE 'UTC', $21::jsonb, $22::text[])
ON CONFLICT ("sessionId", "requestSeq") DO NOTHING
RETURNING id`;

const COUNT_SQL = `SELECT count(*)::int AS pending FROM "Approval" WHERE "teamId" = $1 AND status = 'pending'`;

const MINUTE = 60_000;

/** A row id in the style of Prisma's cuid()s (opaque to everyone; unique is what matters). */
function approvalId(): string {
  return `apr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * The durable side of an approval wait: the worker holding the session turns its
 * `approval.requested` event into a pending `Approval` row (the inbox's item), with the expiry
 * and escalation the team's policy sets, then tells the team's dashboards the pending count.
 */
export class ApprovalGate {
  constructor(private readonly options: { pool: Queryable; policies: TeamPolicies; bus: LiveBus; clock: Clock; logger: Logger }) {}

  /** Inserts the pending row for `request` unless it exists. Returns whether it was inserted. */
  async open(request: ApprovalRequest, db: Queryable = this.options.pool): Promise<boolean> {
    const run = (await db.query({ name: 'looplane_approval_run_v1', text: RUN_SQL, values: [request.runId] })).rows[0] as
      | { teamId: string; createdById: string | null }
      | undefined;
    if (!run) return false;
    const policy = await this.options.policies.active(run.teamId);
    const rules = policy.document.approvals;
    const now = this.options.clock.now();
    const { payload } = request;
    // Credited to whoever gave the instructions the call follows from, not only the run's creator.
    const givers = await instructionGivers(db, request.sessionId, request.requestSeq, run.createdById);
    const escalates = rules.escalateAfterMinutes !== undefined && rules.escalateToRole !== undefined && rules.escalateToRole !== payload.role;
    const inserted = await db.query({
      name: 'looplane_approval_insert_v3',
      text: INSERT_SQL,
      values: [
        approvalId(),
        run.teamId,
        request.runId,
        request.sessionId,
        request.requestSeq,
        payload.callId,
        payload.tool,
        JSON.stringify(payload.args),
        payload.risk ?? 'medium',
        payload.ruleId ?? null,
        policy.versionId,
        payload.role,
        rules.fourEyes,
        givers.requestedById,
        new Date(now + rules.expiresAfterMinutes * MINUTE).toISOString(),
        rules.expiryOutcome,
        escalates ? new Date(now + rules.escalateAfterMinutes! * MINUTE).toISOString() : null,
        escalates ? rules.escalateToRole : null,
        new Date(now).toISOString(),
        // An interrupted call's re-run is a tool approval; an effect's row keeps the held result for its diff.
        payload.kind === 'effect' || payload.kind === 'breaker' ? payload.kind : 'tool',
        payload.held ? JSON.stringify(payload.held) : null,
        givers.instructedByIds,
      ],
    });
    if (inserted.rowCount === 0) return false;
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
      const found = await this.options.pool.query({ name: 'looplane_approval_count_v1', text: COUNT_SQL, values: [teamId] });
      const pending = (found.rows[0] as { pending: number }).pending;
      await this.options.bus.publishTeamActivity(teamId, { kind: 'approvals.count', pending });
    } catch (error) {
      this.options.logger.warn({ err: error, teamId }, 'cannot publish the pending approval count');
    }
  }
}
