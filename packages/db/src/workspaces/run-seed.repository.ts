import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The `workspace.seeded` payload of a run's root session (where the run's files came from; every
 * branch of the run inherits it), as stored; null when the run started empty or is not seeded yet.
 */
const RUN_SEED_SQL = namedQuery({
  name: 'looplane_run_seed_v1',
  params: { run_id: param.text },
  text: `
SELECT e.payload FROM "Run" r
JOIN "Event" e ON e."sessionId" = r."rootSessionId" AND e.type = 'workspace.seeded'
WHERE r.id = :run_id
ORDER BY e.seq ASC LIMIT 1`,
}).returns<{ payload: unknown }>();

/** The run's `workspace.seeded` payload (unparsed), or null. */
export async function runSeed(db: Queryable, runId: string): Promise<unknown> {
  return rowsOf(RUN_SEED_SQL, await db.query(RUN_SEED_SQL.bind({ run_id: runId })))[0]?.payload ?? null;
}
