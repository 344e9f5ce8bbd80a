import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { RunStatus, sqlList } from '../vocabulary/statuses';
import { utcFromMs } from '../sql/epoch-ms';

/** The statuses of a run that is not finished. */
const ACTIVE = sqlList([RunStatus.queued, RunStatus.running, RunStatus.waiting, RunStatus.paused]);

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** What the busiest lists rank: a plain agent's runs, or a graph's (a swarm run's root agent is the graph's). */
export type BusyKind = 'agent' | 'graph';

/** An agent or graph with its active runs and the runs it started since the cut-off. */
export interface BusyRow {
  id: string;
  /** Null only for a row deleted between the join and the read. */
  name: string | null;
  active: number;
  runsSince: number;
}

const params = { team_id: param.text, since_ms: param.bigint };

// Counts as float8: node-postgres and Prisma's raw queries both read them as numbers.
const BUSIEST_AGENTS_SQL = namedQuery({
  name: 'looplane_overview_busiest_agents_v1',
  params,
  text: `
SELECT r."agentId" AS id, a.name,
  count(*) FILTER (WHERE r.status IN ${ACTIVE})::float8 AS active,
  count(*) FILTER (WHERE r."createdAt" >= ${utcFromMs('since_ms')})::float8 AS "runsSince"
FROM "Run" r JOIN "AgentTemplate" a ON a.id = r."agentId"
WHERE r."teamId" = :team_id AND r."graphId" IS NULL AND (r.status IN ${ACTIVE} OR r."createdAt" >= ${utcFromMs('since_ms')})
GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC, 2 LIMIT 5`,
}).returns<BusyRow>();

const BUSIEST_GRAPHS_SQL = namedQuery({
  name: 'looplane_overview_busiest_graphs_v1',
  params,
  text: `
SELECT r."graphId" AS id, g.name,
  count(*) FILTER (WHERE r.status IN ${ACTIVE})::float8 AS active,
  count(*) FILTER (WHERE r."createdAt" >= ${utcFromMs('since_ms')})::float8 AS "runsSince"
FROM "Run" r JOIN "SwarmGraph" g ON g.id = r."graphId"
WHERE r."teamId" = :team_id AND (r.status IN ${ACTIVE} OR r."createdAt" >= ${utcFromMs('since_ms')})
GROUP BY 1, 2 ORDER BY 3 DESC, 4 DESC, 2 LIMIT 5`,
}).returns<BusyRow>();

/**
 * The five agents (or graphs) of the team with the most active runs, then the most runs created
 * since `since`. Agents count only their plain runs (a swarm run counts for its graph).
 */
export async function busiestRows(db: Queryable, teamId: string, by: BusyKind, since: Date): Promise<BusyRow[]> {
  const query = by === 'agent' ? BUSIEST_AGENTS_SQL : BUSIEST_GRAPHS_SQL;
  return rowsOf(query, await db.query(query.bind({ team_id: teamId, since_ms: since.getTime() })));
}

const spendParams = { team_id: param.text, since_ms: param.bigint, ids: param.textArray };

// Sums as float8: the same number from node-postgres and Prisma's raw queries (exact below 2^53).
const AGENT_SPEND_SQL = namedQuery({
  name: 'looplane_overview_agent_spend_v1',
  params: spendParams,
  text: `
SELECT r."agentId" AS id, sum(COALESCE((e.payload->>'costMicros')::bigint, 0))::float8 AS cost
FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${utcFromMs('since_ms')}
WHERE r."teamId" = :team_id AND r."updatedAt" >= ${utcFromMs('since_ms')} AND r."agentId" = ANY(:ids) AND r."graphId" IS NULL
GROUP BY 1`,
}).returns<{ id: string; cost: number | null }>();

const GRAPH_SPEND_SQL = namedQuery({
  name: 'looplane_overview_graph_spend_v1',
  params: spendParams,
  text: `
SELECT r."graphId" AS id, sum(COALESCE((e.payload->>'costMicros')::bigint, 0))::float8 AS cost
FROM "Run" r JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${utcFromMs('since_ms')}
WHERE r."teamId" = :team_id AND r."updatedAt" >= ${utcFromMs('since_ms')} AND r."graphId" = ANY(:ids)
GROUP BY 1`,
}).returns<{ id: string; cost: number | null }>();

/**
 * Model spend since `since` of each of the agents (or graphs) `ids`, from the run logs as the
 * Costs page counts it; an id that spent nothing has no entry.
 */
export async function busySpend(db: Queryable, teamId: string, by: BusyKind, ids: readonly string[], since: Date): Promise<Map<string, number>> {
  const query = by === 'agent' ? AGENT_SPEND_SQL : GRAPH_SPEND_SQL;
  const rows = rowsOf(query, await db.query(query.bind({ team_id: teamId, since_ms: since.getTime(), ids })));
  return new Map(rows.map((row) => [row.id, row.cost ?? 0]));
}
