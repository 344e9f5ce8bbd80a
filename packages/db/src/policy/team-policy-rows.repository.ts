import { namedQuery, param, rowsOf } from '../sql/named-query';
import type { Queryable } from '../runs/pg-pool';

/** What a reader already holds for a team: the version rows whose documents need not be sent again. */
export interface HeldPolicyVersions {
  teamId: string;
  /** The `PolicyVersion` id of the active document held (null: none held). */
  activeId: string | null;
  /** The `PolicyVersion` id of the shadow document held (null: none held). */
  shadowVersionId: string | null;
}

/**
 * A team's current policy pointers, read now. Documents come only for versions the reader does
 * not hold (a version row never changes, so an id names its document for good); `null` with a
 * non-null id means "the one you hold". No row for a team: it has no policy (the built-in default).
 */
export interface TeamPolicyRow {
  teamId: string;
  activeVersion: number;
  activeId: string | null;
  activeDocument: unknown;
  shadowVersion: number | null;
  shadowId: string | null;
  shadowVersionId: string | null;
  shadowDocument: unknown;
}

/**
 * The active version and the shadow of each team asked about, in one statement: the team's most
 * recently changed policy row (as every reader of the active policy takes it), joined to its two
 * version rows. `:held` is JSON `[{ teamId, activeId, shadowVersionId }]`.
 */
const TEAM_POLICIES_SQL = namedQuery({
  name: 'looplane_team_policies_v2',
  params: { held: param.jsonb },
  text: `
SELECT h."teamId", p."activeVersion", a.id AS "activeId",
       CASE WHEN a.id IS DISTINCT FROM h."activeId" THEN a.document END AS "activeDocument",
       p."shadowVersion", p."shadowId", s.id AS "shadowVersionId",
       CASE WHEN s.id IS DISTINCT FROM h."shadowVersionId" THEN s.document END AS "shadowDocument"
FROM jsonb_to_recordset(:held) AS h("teamId" text, "activeId" text, "shadowVersionId" text)
JOIN LATERAL (
  SELECT p.id, p."activeVersion", p."shadowVersion", p."shadowId" FROM "Policy" p
  WHERE p."teamId" = h."teamId" ORDER BY p."updatedAt" DESC LIMIT 1
) p ON true
LEFT JOIN "PolicyVersion" a ON a."policyId" = p.id AND a.version = p."activeVersion"
LEFT JOIN "PolicyVersion" s ON s."policyId" = p.id AND s.version = p."shadowVersion"`,
}).returns<TeamPolicyRow>();

/**
 * Reads the current policy pointers of several teams in one round trip (see {@link TeamPolicyRow}).
 * The statement starts after the call, so it sees every policy change committed before it.
 */
export async function readTeamPolicyRows(db: Queryable, held: readonly HeldPolicyVersions[]): Promise<Map<string, TeamPolicyRow>> {
  const result = await db.query(TEAM_POLICIES_SQL.bind({ held: JSON.stringify(held) }));
  return new Map(rowsOf(TEAM_POLICIES_SQL, result).map((row) => [row.teamId, row]));
}
