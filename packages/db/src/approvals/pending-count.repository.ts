import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

const PENDING_COUNT_SQL = namedQuery({
  name: 'looplane_approval_count_v2',
  params: { team_id: param.text },
  text: `SELECT count(*)::int AS pending FROM "Approval" WHERE "teamId" = :team_id AND status = 'pending'`,
}).returns<{ pending: number }>();

/** How many of the team's approvals are pending (the inbox's count on the dashboards). */
export async function countPendingApprovals(db: Queryable, teamId: string): Promise<number> {
  return rowsOf(PENDING_COUNT_SQL, await db.query(PENDING_COUNT_SQL.bind({ team_id: teamId })))[0]!.pending;
}
