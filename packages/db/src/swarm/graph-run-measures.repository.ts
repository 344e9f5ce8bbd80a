import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

// When each graph-run breaker last tripped in any session of the run: approving such a trip
// restarts the run's window for every session, not only for the one that happened to trip it.
const RUN_TRIPS_SQL = namedQuery({
  name: 'looplane_breaker_run_trips_v2',
  params: { run_id: param.text },
  text: `
SELECT payload->>'breaker' AS breaker, (extract(epoch FROM max("createdAt")) * 1000)::float8 AS "atMs"
FROM "Event"
WHERE "runId" = :run_id AND type = 'breaker.tripped' AND payload->>'scope' = 'graphRun'
GROUP BY 1`,
}).returns<GraphRunTrip>();

/** A graph-run breaker and when (epoch ms) it last tripped in the run. */
export interface GraphRunTrip {
  breaker: string;
  atMs: number;
}

/** The last graph-wide trip of each breaker in any session of the run. */
export async function graphRunTrips(db: Queryable, runId: string): Promise<GraphRunTrip[]> {
  return rowsOf(RUN_TRIPS_SQL, await db.query(RUN_TRIPS_SQL.bind({ run_id: runId })));
}

// Spend of every session of the run between two event times (the events of a run are indexed by type).
const SPEND_SQL = namedQuery({
  name: 'looplane_breaker_run_spend_v2',
  params: { run_id: param.text, from: param.timestamptz, to: param.timestamptz },
  text: `
SELECT coalesce(sum(coalesce((payload->'usage'->>'inputTokens')::bigint, 0) + coalesce((payload->'usage'->>'outputTokens')::bigint, 0)), 0)::text AS tokens,
  coalesce(sum(coalesce((payload->>'costMicros')::bigint, 0)), 0)::text AS "costMicros"
FROM "Event"
WHERE "runId" = :run_id AND type IN ('model.responded', 'model.failed', 'compaction.applied')
  AND "createdAt" > :from AT TIME ZONE 'UTC' AND "createdAt" <= :to AT TIME ZONE 'UTC'`,
}).returns<{ tokens: string; costMicros: string }>();

/** Tokens and cost every session of the run spent after `from`, up to and including `to`. */
export async function graphRunSpend(db: Queryable, runId: string, from: Date, to: Date): Promise<{ tokens: number; costMicros: number }> {
  const row = rowsOf(SPEND_SQL, await db.query(SPEND_SQL.bind({ run_id: runId, from, to })))[0]!;
  return { tokens: Number(row.tokens), costMicros: Number(row.costMicros) };
}

// Delegations of the run sent after a time and not yet returned to the session that sent them.
const IN_FLIGHT_SQL = namedQuery({
  name: 'looplane_breaker_in_flight_v2',
  params: { run_id: param.text, since: param.timestamptz },
  text: `
SELECT count(*)::int AS n FROM "Event" s
WHERE s."runId" = :run_id AND s.type = 'delegation.sent' AND s."createdAt" > :since AT TIME ZONE 'UTC'
  AND NOT EXISTS (
    SELECT 1 FROM "Event" r
    WHERE r."runId" = :run_id AND r.type = 'delegation.returned' AND r."sessionId" = s."sessionId" AND r.payload->>'callId' = s.payload->>'callId'
  )`,
}).returns<{ n: number }>();

/** How many of the run's delegations sent after `since` have not returned yet. */
export async function graphRunDelegationsInFlight(db: Queryable, runId: string, since: Date): Promise<number> {
  return rowsOf(IN_FLIGHT_SQL, await db.query(IN_FLIGHT_SQL.bind({ run_id: runId, since })))[0]!.n;
}
