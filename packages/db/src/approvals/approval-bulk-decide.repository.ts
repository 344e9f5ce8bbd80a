import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

// Only rows still `pending` change: a concurrent decision or the sweeper's expiry wins cleanly.
// decidedAt as Prisma stores timestamps: UTC wall time in a column without zone.
const DECIDE_PENDING_SQL = namedQuery({
  name: 'looplane_approvals_decide_many_v1',
  params: { status: param.text, decided_by_id: param.text, comment: param.nullableText, ids: param.textArray },
  text: `UPDATE "Approval" SET status = :status::"ApprovalStatus", "decidedById" = :decided_by_id, "decidedAt" = (now() AT TIME ZONE 'UTC'), comment = :comment
       WHERE id = ANY(:ids) AND status = 'pending' RETURNING id`,
});

/**
 * Decides the approvals of `ids` that are still pending, in one statement inside the caller's
 * transaction. Returns the ids it decided (the others were decided or expired a moment before).
 */
export async function decidePendingApprovals(
  tx: Tx,
  decision: { status: 'approved' | 'rejected'; decidedById: string; comment: string | null; ids: readonly string[] },
): Promise<string[]> {
  const q = DECIDE_PENDING_SQL.bind({ status: decision.status, decided_by_id: decision.decidedById, comment: decision.comment, ids: decision.ids });
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(q.text, ...q.values);
  return rows.map((row) => row.id);
}
