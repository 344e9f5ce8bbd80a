import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { utcFromMs } from '../sql/epoch-ms';

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** The team's model spend of one UTC day. */
export interface DailySpend {
  /** Midnight UTC starting the day. */
  day: Date;
  costMicros: number;
}

// Days and sums are read as float8 (epoch milliseconds, micros): node-postgres and Prisma's raw
// queries give the same numbers, exact below 2^53.
const DAILY_SPEND_SQL = namedQuery({
  name: 'looplane_overview_daily_spend_v1',
  params: { team_id: param.text, since_ms: param.bigint },
  text: `
SELECT (extract(epoch FROM date_trunc('day', e."createdAt")) * 1000)::float8 AS "dayMs",
  sum(COALESCE((e.payload->>'costMicros')::bigint, 0))::float8 AS cost
FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${utcFromMs('since_ms')}
WHERE r."teamId" = :team_id AND r."updatedAt" >= ${utcFromMs('since_ms')}
GROUP BY 1`,
}).returns<{ dayMs: number; cost: number | null }>();

/**
 * Model spend per UTC day from `since` on, from the run logs (`model.responded` carries each
 * call's cost), as the Costs page counts it. Only runs updated since then can have spent (a model
 * call updates its run). Days without spend have no row.
 */
export async function dailyModelSpend(db: Queryable, teamId: string, since: Date): Promise<DailySpend[]> {
  const rows = rowsOf(DAILY_SPEND_SQL, await db.query(DAILY_SPEND_SQL.bind({ team_id: teamId, since_ms: since.getTime() })));
  return rows.map((row) => ({ day: new Date(row.dayMs), costMicros: row.cost ?? 0 }));
}
