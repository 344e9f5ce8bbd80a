import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

const LOCK_SQL = namedQuery({
  name: 'looplane_team_membership_lock_v1',
  params: { lock_key: param.text },
  text: 'SELECT pg_advisory_xact_lock(hashtextextended(:lock_key, 0))',
});

/**
 * Serialises membership changes of one team inside `tx` (a transaction-scoped advisory lock, held
 * until it ends), so the last-admin check cannot race another change of the team's members.
 */
export async function lockTeamMembership(tx: Tx, teamId: string): Promise<void> {
  const lock = LOCK_SQL.bind({ lock_key: `team:${teamId}` });
  // Executed: the lock returns nothing to read.
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
}
