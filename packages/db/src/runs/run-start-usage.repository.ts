import { z } from 'zod';
import type { Queryable } from './pg-pool';
import { quoteLiteral } from '../sql/literal';
import { namedQuery, param } from '../sql/named-query';

/** What counts as a start: the audit actions of every way a person starts agent work. */
const RUN_START_ACTIONS = ['run.created', 'session.forked', 'session.replayed', 'session.resumed'] as const;

// The actions are constants of the statement, written into its text once.
const USAGE_SQL = namedQuery({
  name: 'looplane_run_start_usage_v1',
  params: { team_id: param.text, since: param.text },
  text: `
    SELECT s.started, s.oldest, (SELECT count(*)::int FROM "Run" WHERE "teamId" = :team_id AND status = 'queued') AS queued
    FROM (
      SELECT count(*)::int AS started, (extract(epoch FROM min("createdAt")) * 1000)::float8 AS oldest
      FROM "AuditLog"
      WHERE "teamId" = :team_id AND action IN (${RUN_START_ACTIONS.map(quoteLiteral).join(', ')})
        AND "createdAt" > (:since::timestamptz AT TIME ZONE 'UTC')
    ) s`,
});
const usageSchema = z.object({ started: z.number(), oldest: z.number().nullable(), queued: z.number() });

/** A team's run starts since a moment, and its queue. */
export interface RunStartUsage {
  /** Starts recorded after `since`. */
  started: number;
  /** When the oldest of them was recorded (epoch ms), if any. */
  oldestMs: number | null;
  /** The team's runs waiting in the queue. */
  queued: number;
}

/**
 * Counts a team's starts after `since` (its audit rows of {@link RUN_START_ACTIONS}) and its queued
 * runs. Exact only under the team's audit-chain lock (`lockAuditChains`), which the caller holds.
 */
export async function teamRunStartUsage(db: Queryable, teamId: string, since: Date): Promise<RunStartUsage> {
  // Audit rows are stamped by the writer's clock, in UTC wall time without zone.
  const result = await db.query(USAGE_SQL.bind({ team_id: teamId, since: since.toISOString() }));
  const row = result.rows[0] === undefined ? undefined : usageSchema.parse(result.rows[0]);
  return { started: row?.started ?? 0, oldestMs: row?.oldest ?? null, queued: row?.queued ?? 0 };
}
