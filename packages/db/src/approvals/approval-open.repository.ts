import type { Role } from '@looplane/shared';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { newId } from '../vocabulary/ids';

const RUN_OWNER_SQL = namedQuery({
  name: 'looplane_approval_run_v2',
  params: { run_id: param.text },
  text: `SELECT "teamId", "createdById" FROM "Run" WHERE id = :run_id`,
}).returns<{ teamId: string; createdById: string | null }>();

/** The team and creator of the run an approval is opened for (null: no such run). */
export async function approvalRunOwner(db: Queryable, runId: string): Promise<{ teamId: string; createdById: string | null } | null> {
  return rowsOf(RUN_OWNER_SQL, await db.query(RUN_OWNER_SQL.bind({ run_id: runId })))[0] ?? null;
}

// Idempotent: a retried job (or a second worker after a crash) finds the row already there.
// Timestamps are UTC `timestamp(3)` columns, as Prisma stores them.
const INSERT_PENDING_SQL = namedQuery({
  name: 'looplane_approval_insert_v4',
  params: {
    id: param.text,
    team_id: param.text,
    run_id: param.text,
    session_id: param.text,
    kind: param.text,
    request_seq: param.int,
    tool_call_id: param.text,
    tool: param.text,
    args: param.jsonb,
    risk: param.text,
    policy_rule_id: param.nullableText,
    policy_version_id: param.nullableText,
    required_role: param.text,
    four_eyes: param.boolean,
    requested_by_id: param.nullableText,
    expires_at: param.timestamptz,
    expiry_outcome: param.text,
    escalate_at: param.nullableTimestamptz,
    escalate_to_role: param.nullableText,
    created_at: param.timestamptz,
    held: param.nullableJsonb,
    instructed_by_ids: param.textArray,
  },
  text: `
INSERT INTO "Approval" (id, "teamId", "runId", "sessionId", kind, "requestSeq", "toolCallId", tool, args, risk,
  "policyRuleId", "policyVersionId", "requiredRole", "fourEyes", status, "requestedById", "expiresAt", "expiryOutcome",
  "escalateAt", "escalateToRole", "createdAt", held, "instructedByIds")
VALUES (:id, :team_id, :run_id, :session_id, :kind::"ApprovalKind", :request_seq, :tool_call_id, :tool, :args, :risk,
  :policy_rule_id, :policy_version_id, :required_role::"Role", :four_eyes, 'pending', :requested_by_id,
  :expires_at AT TIME ZONE 'UTC', :expiry_outcome, :escalate_at AT TIME ZONE 'UTC', :escalate_to_role::"Role",
  :created_at AT TIME ZONE 'UTC', :held, :instructed_by_ids)
ON CONFLICT ("sessionId", "requestSeq") DO NOTHING
RETURNING id`,
});

/** A pending `Approval` row as the worker opens it for an `approval.requested` event. */
export interface PendingApproval {
  teamId: string;
  runId: string;
  sessionId: string;
  kind: 'tool' | 'effect' | 'breaker';
  /** The seq of the `approval.requested` event: with the session, the row's key. */
  requestSeq: number;
  toolCallId: string;
  tool: string;
  args: unknown;
  risk: string;
  policyRuleId: string | null;
  policyVersionId: string | null;
  requiredRole: Role;
  fourEyes: boolean;
  requestedById: string | null;
  instructedByIds: readonly string[];
  expiresAt: Date;
  expiryOutcome: string;
  escalateAt: Date | null;
  escalateToRole: Role | null;
  createdAt: Date;
  /** An effect's held result, kept for its diff (null: none). */
  held: unknown;
}

/** Inserts the pending row unless the session's row for `requestSeq` exists. Returns whether it was inserted. */
export async function insertPendingApproval(db: Queryable, approval: PendingApproval): Promise<boolean> {
  const inserted = await db.query(
    INSERT_PENDING_SQL.bind({
      id: newId(),
      team_id: approval.teamId,
      run_id: approval.runId,
      session_id: approval.sessionId,
      kind: approval.kind,
      request_seq: approval.requestSeq,
      tool_call_id: approval.toolCallId,
      tool: approval.tool,
      args: JSON.stringify(approval.args),
      risk: approval.risk,
      policy_rule_id: approval.policyRuleId,
      policy_version_id: approval.policyVersionId,
      required_role: approval.requiredRole,
      four_eyes: approval.fourEyes,
      requested_by_id: approval.requestedById,
      expires_at: approval.expiresAt,
      expiry_outcome: approval.expiryOutcome,
      escalate_at: approval.escalateAt,
      escalate_to_role: approval.escalateToRole,
      created_at: approval.createdAt,
      held: approval.held === null ? null : JSON.stringify(approval.held),
      instructed_by_ids: approval.instructedByIds,
    }),
  );
  return inserted.rowCount !== 0;
}
