import type { Role } from '@looplane/shared';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** The latest approval request of a session and the latest row opened for a call, as one row. */
export interface ApprovalDecisionRow {
  /** The seq of the session's latest `approval.requested` event (null: none). */
  requestSeq: number | null;
  payload: { callId?: unknown } | null;
  /** The seq the latest row for the call was opened at (null: no row). */
  rowSeq: number | null;
  status: 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled' | null;
  editedArgs: Record<string, unknown> | null;
  comment: string | null;
  expiryOutcome: string;
  /** The decider's email (their id when they have no user row any more). */
  decidedBy: string | null;
  approvalId: string | null;
  teamId: string | null;
  kind: string | null;
  tool: string | null;
  decidedById: string | null;
  /** The decider's current role in the team (null: no longer a member). */
  deciderRole: Role | null;
}

// The session's latest approval.requested event, and the latest row opened for the call, with who decided.
const DECISION_SQL = namedQuery({
  name: 'looplane_approval_decision_v4',
  params: { session_id: param.text, call_id: param.text },
  text: `
WITH req AS (
  SELECT seq, payload FROM "Event" WHERE "sessionId" = :session_id AND type = 'approval.requested' ORDER BY seq DESC LIMIT 1
)
SELECT (SELECT seq FROM req) AS "requestSeq", (SELECT payload FROM req) AS payload, a."requestSeq" AS "rowSeq", a.status,
  a."editedArgs", a.comment, a."expiryOutcome", COALESCE(u.email, a."decidedById") AS "decidedBy",
  a.id AS "approvalId", a."teamId", a.kind::text AS kind, a.tool, a."decidedById", m.role::text AS "deciderRole"
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
  SELECT * FROM "Approval" WHERE "sessionId" = :session_id AND "toolCallId" = :call_id ORDER BY "requestSeq" DESC LIMIT 1
) a ON true
LEFT JOIN "User" u ON u.id = a."decidedById"
LEFT JOIN "Membership" m ON m."userId" = a."decidedById" AND m."teamId" = a."teamId"`,
}).returns<ApprovalDecisionRow>();

/** Reads where the approval wait on `callId` in the session stands, in one statement (always one row). */
export async function readApprovalDecision(db: Queryable, sessionId: string, callId: string): Promise<ApprovalDecisionRow> {
  return rowsOf(DECISION_SQL, await db.query(DECISION_SQL.bind({ session_id: sessionId, call_id: callId })))[0]!;
}
