import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** The version row a team's policy names active: its id, number and (unchecked) document. */
export interface ActivePolicyRow {
  id: string;
  version: number;
  document: unknown;
}

const ACTIVE_POLICY_SQL = namedQuery({
  name: 'looplane_policy_active_version_v1',
  params: { team_id: param.text, name: param.text },
  text: `
SELECT pv.id, pv.version, pv.document FROM "Policy" p
JOIN "PolicyVersion" pv ON pv."policyId" = p.id AND pv.version = p."activeVersion"
WHERE p."teamId" = :team_id AND p.name = :name`,
}).returns<ActivePolicyRow>();

/** The active version of the team's policy `name`, in one read; null while the team has none saved. */
export async function activePolicyRow(db: Queryable, teamId: string, name: string): Promise<ActivePolicyRow | null> {
  return rowsOf(ACTIVE_POLICY_SQL, await db.query(ACTIVE_POLICY_SQL.bind({ team_id: teamId, name })))[0] ?? null;
}
