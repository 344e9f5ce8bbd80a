import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { RunStatus, sqlList } from '../vocabulary/statuses';
import { utcFromMs } from '../sql/epoch-ms';

/** The statuses of a run that is not finished: what the overview counts as live work. */
const ACTIVE = sqlList([RunStatus.queued, RunStatus.running, RunStatus.waiting, RunStatus.paused]);

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** Runs of the team in one status (and, for a waiting run, one wait reason). */
export interface ActiveRunCount {
  status: string;
  waitReason: string | null;
  count: number;
}

// Counts as float8: node-postgres and Prisma's raw queries both read it as a number.
const ACTIVE_RUNS_SQL = namedQuery({
  name: 'looplane_overview_active_runs_v1',
  params: { team_id: param.text },
  text: `
SELECT status::text AS status, "waitReason"::text AS "waitReason", count(*)::float8 AS count FROM "Run"
WHERE "teamId" = :team_id AND status IN ${ACTIVE}
GROUP BY 1, 2`,
}).returns<ActiveRunCount>();

/** The team's unfinished runs, counted by status and wait reason. */
export async function activeRunCounts(db: Queryable, teamId: string): Promise<ActiveRunCount[]> {
  return rowsOf(ACTIVE_RUNS_SQL, await db.query(ACTIVE_RUNS_SQL.bind({ team_id: teamId })));
}

/** Runs of the team that finished in one status. */
export interface FinishedRunCount {
  status: string;
  count: number;
}

const FINISHED_RUNS_SQL = namedQuery({
  name: 'looplane_overview_finished_runs_v1',
  params: { team_id: param.text, since_ms: param.bigint },
  text: `
SELECT status::text AS status, count(*)::float8 AS count FROM "Run"
WHERE "teamId" = :team_id AND status IN ${sqlList([RunStatus.failed, RunStatus.succeeded])} AND "finishedAt" >= ${utcFromMs('since_ms')}
GROUP BY 1`,
}).returns<FinishedRunCount>();

/** The team's runs that failed or succeeded at or after `since`, counted by status. */
export async function finishedRunCounts(db: Queryable, teamId: string, since: Date): Promise<FinishedRunCount[]> {
  return rowsOf(FINISHED_RUNS_SQL, await db.query(FINISHED_RUNS_SQL.bind({ team_id: teamId, since_ms: since.getTime() })));
}
