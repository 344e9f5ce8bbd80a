import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** One model call of a run, from its `model.responded` event. */
export interface RunModelCall {
  eventNo: number;
  at: Date;
  sessionId: string;
  /** The session's title. */
  title: string;
  endpointName: string | null;
  /** Null when the event does not carry it. */
  costMicros: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A run's spend across one graph edge. */
export interface RunEdgeSpend {
  edgeId: string;
  /** `from → to`; null when the edge is gone. */
  name: string | null;
  costMicros: number;
  tokens: number;
}

// Numbers as float8 and the time as epoch milliseconds: node-postgres and Prisma's raw queries
// give the same values.
const MODEL_CALLS_SQL = namedQuery({
  name: 'looplane_costs_run_model_calls_v1',
  params: { run_id: param.text },
  text: `
SELECT e."eventNo"::float8 AS "eventNo", (extract(epoch FROM e."createdAt") * 1000)::float8 AS "atMs", s.id AS "sessionId", s.title, me.name AS "endpointName",
  (e.payload->>'costMicros')::bigint::float8 AS cost, (e.payload->'usage'->>'inputTokens')::bigint::float8 AS input, (e.payload->'usage'->>'outputTokens')::bigint::float8 AS output
FROM "Event" e JOIN "Session" s ON s.id = e."sessionId" LEFT JOIN "ModelEndpoint" me ON me.id = s."endpointId"
WHERE e."runId" = :run_id AND e.type = 'model.responded'
ORDER BY e."eventNo" LIMIT 2000`,
}).returns<{
  eventNo: number;
  atMs: number;
  sessionId: string;
  title: string;
  endpointName: string | null;
  cost: number | null;
  input: number | null;
  output: number | null;
}>();

/** The run's model calls in event order (the first 2000), with their session and endpoint. */
export async function runModelCalls(db: Queryable, runId: string): Promise<RunModelCall[]> {
  const rows = rowsOf(MODEL_CALLS_SQL, await db.query(MODEL_CALLS_SQL.bind({ run_id: runId })));
  return rows.map((row) => ({
    eventNo: row.eventNo,
    at: new Date(row.atMs),
    sessionId: row.sessionId,
    title: row.title,
    endpointName: row.endpointName,
    costMicros: row.cost,
    inputTokens: row.input,
    outputTokens: row.output,
  }));
}

const EDGE_SPEND_SQL = namedQuery({
  name: 'looplane_costs_run_edge_spend_v1',
  params: { run_id: param.text },
  text: `
SELECT c."edgeId" AS "edgeId", ge."fromKey" || ' → ' || ge."toKey" AS name, sum(c."costMicros")::float8 AS cost, sum(c.tokens)::float8 AS tokens
FROM "SwarmCrossing" c LEFT JOIN "GraphEdge" ge ON ge.id = c."edgeId"
WHERE c."runId" = :run_id AND c.direction = 'back' GROUP BY 1, 2`,
}).returns<{ edgeId: string; name: string | null; cost: number | null; tokens: number | null }>();

/** The run's spend across each graph edge (back crossings carry the child subtree's spend). */
export async function runEdgeSpend(db: Queryable, runId: string): Promise<RunEdgeSpend[]> {
  const rows = rowsOf(EDGE_SPEND_SQL, await db.query(EDGE_SPEND_SQL.bind({ run_id: runId })));
  return rows.map((row) => ({ edgeId: row.edgeId, name: row.name, costMicros: row.cost ?? 0, tokens: row.tokens ?? 0 }));
}
