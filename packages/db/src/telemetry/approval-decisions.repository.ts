import type { Db } from '../client';
import { namedQuery } from '../sql/named-query';

interface DecisionTotalsRow {
  /** count(*) is a bigint. */
  n: bigint;
  total: number | null;
}

/** Decision times of every decided approval, summed by Postgres (scraped as a Prometheus summary). */
const DECISION_TOTALS_SQL = namedQuery({
  name: 'looplane_metrics_approval_decisions_v1',
  params: {},
  text: `
SELECT count(*) AS n, sum(extract(epoch FROM ("decidedAt" - "createdAt")))::float8 AS total
FROM "Approval" WHERE "decidedAt" IS NOT NULL`,
});

export interface ApprovalDecisionTotals {
  /** Approvals decided. */
  count: number;
  /** Seconds from request to decision, summed over them. */
  sum: number;
}

export async function approvalDecisionTotals(db: Db): Promise<ApprovalDecisionTotals> {
  const q = DECISION_TOTALS_SQL.bind({});
  const rows = await db.$queryRawUnsafe<DecisionTotalsRow[]>(q.text, ...q.values);
  return { count: Number(rows[0]?.n ?? 0n), sum: rows[0]?.total ?? 0 };
}
