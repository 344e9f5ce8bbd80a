import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { utcFromMs } from '../sql/epoch-ms';

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** Model spend of one UTC day by one agent on one endpoint. */
export interface ModelSpendRow {
  /** Midnight UTC starting the day. */
  day: Date;
  agentId: string | null;
  agentName: string | null;
  endpointId: string | null;
  endpointName: string | null;
  costMicros: number;
  tokens: number;
}

/** Spend of one UTC day across one graph edge (what the child subtree spent, counted on its way back). */
export interface EdgeSpendRow {
  day: Date;
  edgeId: string;
  /** `from → to`; null when the edge is gone. */
  name: string | null;
  costMicros: number;
  tokens: number;
}

// Days as epoch milliseconds and sums as float8: node-postgres and Prisma's raw queries give the
// same numbers (exact below 2^53).
const MODEL_SPEND_SQL = namedQuery({
  name: 'looplane_costs_team_model_spend_v1',
  params: { team_id: param.text, from_ms: param.bigint },
  text: `
SELECT (extract(epoch FROM date_trunc('day', e."createdAt")) * 1000)::float8 AS "dayMs",
  COALESCE(s."agentId", r."agentId") AS "agentId", a.name AS "agentName", s."endpointId" AS "endpointId", me.name AS "endpointName",
  sum(COALESCE((e.payload->>'costMicros')::bigint, 0))::float8 AS cost,
  sum(COALESCE((e.payload->'usage'->>'inputTokens')::bigint, 0) + COALESCE((e.payload->'usage'->>'outputTokens')::bigint, 0))::float8 AS tokens
FROM "Run" r
JOIN "Event" e ON e."runId" = r.id AND e.type = 'model.responded' AND e."createdAt" >= ${utcFromMs('from_ms')}
JOIN "Session" s ON s.id = e."sessionId"
LEFT JOIN "AgentTemplate" a ON a.id = COALESCE(s."agentId", r."agentId")
LEFT JOIN "ModelEndpoint" me ON me.id = s."endpointId"
WHERE r."teamId" = :team_id AND r."updatedAt" >= ${utcFromMs('from_ms')}
GROUP BY 1, 2, 3, 4, 5`,
}).returns<Omit<ModelSpendRow, 'day' | 'costMicros' | 'tokens'> & { dayMs: number; cost: number | null; tokens: number | null }>();

/**
 * The team's model spend from `from` on, per UTC day, agent and endpoint, from the run logs
 * (`model.responded` carries each call's cost). Only runs updated in the window could have spent
 * (a model call updates the run). A call is the agent's that ran its session: a swarm node's
 * session runs the node's agent, not the run's (the root's).
 */
export async function teamModelSpend(db: Queryable, teamId: string, from: Date): Promise<ModelSpendRow[]> {
  const rows = rowsOf(MODEL_SPEND_SQL, await db.query(MODEL_SPEND_SQL.bind({ team_id: teamId, from_ms: from.getTime() })));
  return rows.map(({ dayMs, cost, tokens, ...row }) => ({ ...row, day: new Date(dayMs), costMicros: cost ?? 0, tokens: tokens ?? 0 }));
}

const EDGE_SPEND_SQL = namedQuery({
  name: 'looplane_costs_team_edge_spend_v1',
  params: { team_id: param.text, from_ms: param.bigint },
  text: `
SELECT (extract(epoch FROM date_trunc('day', c."createdAt")) * 1000)::float8 AS "dayMs", c."edgeId" AS "edgeId", ge."fromKey" || ' → ' || ge."toKey" AS name,
  sum(c."costMicros")::float8 AS cost, sum(c.tokens)::float8 AS tokens
FROM "SwarmCrossing" c
JOIN "Run" r ON r.id = c."runId"
LEFT JOIN "GraphEdge" ge ON ge.id = c."edgeId"
WHERE r."teamId" = :team_id AND c.direction = 'back' AND c."createdAt" >= ${utcFromMs('from_ms')}
GROUP BY 1, 2, 3`,
}).returns<Omit<EdgeSpendRow, 'day' | 'costMicros' | 'tokens'> & { dayMs: number; cost: number | null; tokens: number | null }>();

/** The team's spend across graph edges from `from` on, per UTC day and edge (back crossings carry the child's spend). */
export async function teamEdgeSpend(db: Queryable, teamId: string, from: Date): Promise<EdgeSpendRow[]> {
  const rows = rowsOf(EDGE_SPEND_SQL, await db.query(EDGE_SPEND_SQL.bind({ team_id: teamId, from_ms: from.getTime() })));
  return rows.map(({ dayMs, cost, tokens, ...row }) => ({ ...row, day: new Date(dayMs), costMicros: cost ?? 0, tokens: tokens ?? 0 }));
}
