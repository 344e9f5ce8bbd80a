import type { Queryable } from '../runs/pg-pool';
import { namedQuery, rowsOf } from '../sql/named-query';

/**
 * When the workers' schedulers next have something to do. An index scan of
 * `("enabled", "nextFireAt")`: cheap enough for every worker to ask about once a second.
 */

const EARLIEST_SQL = namedQuery({
  name: 'looplane_schedule_earliest_fire_v1',
  params: {},
  text: `
SELECT (extract(epoch FROM "nextFireAt") * 1000)::float8 AS "atMs" FROM "Schedule"
WHERE enabled AND "nextFireAt" IS NOT NULL
ORDER BY "nextFireAt" LIMIT 1`,
}).returns<{ atMs: number }>();

/** The earliest `nextFireAt` of any enabled schedule (of every team); null when none is enabled. */
export async function earliestScheduleFireAt(db: Queryable): Promise<Date | null> {
  const row = rowsOf(EARLIEST_SQL, await db.query(EARLIEST_SQL.bind({})))[0];
  return row === undefined ? null : new Date(row.atMs);
}
