import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

const LOCK_SQL = namedQuery({
  name: 'looplane_policy_team_lock_v1',
  params: { lock_key: param.text },
  text: 'SELECT pg_advisory_xact_lock(hashtextextended(:lock_key, 0))',
});

/**
 * Takes the team's policy lock until the caller's transaction ends, so saves, shadow changes and
 * promotions never interleave (two admins saving at once get consecutive versions, never the
 * same number). Read the policy row after this. It runs on the Prisma transaction the change is
 * written in (its audit row included); `$executeRaw`, since Prisma cannot read back a void column.
 */
export async function lockTeamPolicy(tx: Tx, teamId: string): Promise<void> {
  const lock = LOCK_SQL.bind({ lock_key: `policy:${teamId}` });
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
}
