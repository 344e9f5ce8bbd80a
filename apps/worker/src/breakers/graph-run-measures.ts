import type { Queryable } from '@looplane/db';
import { SPEND_WINDOW_MS } from '@looplane/engine';
import type { GraphRunMeasures } from '@looplane/policy';

// Spend of every session of the run between two event times (the events of a run are indexed by type).
const SPEND_SQL = `
SELECT coalesce(sum(coalesce((payload->'usage'->>'inputTokens')::bigint, 0) + coalesce((payload->'usage'->>'outputTokens')::bigint, 0)), 0)::text AS tokens,
  coalesce(sum(coalesce((payload->>'costMicros')::bigint, 0)), 0)::text AS "costMicros"
FROM "Event"
WHERE "runId" = $1 AND type IN ('model.responded', 'model.failed', 'compaction.applied')
  AND "createdAt" > $2::timestamptz AT TIME ZONE 'UTC' AND "createdAt" <= $3::timestamptz AT TIME ZONE 'UTC'`;

// Delegations of the run sent after a time and not yet returned to the session that sent them.
const IN_FLIGHT_SQL = `
SELECT count(*)::int AS n FROM "Event" s
WHERE s."runId" = $1 AND s.type = 'delegation.sent' AND s."createdAt" > $2::timestamptz AT TIME ZONE 'UTC'
  AND NOT EXISTS (
    SELECT 1 FROM "Event" r
    WHERE r."runId" = $1 AND r.type = 'delegation.returned' AND r."sessionId" = s."sessionId" AND r.payload->>'callId' = s.payload->>'callId'
  )`;

// When each graph-run breaker last tripped in any session of the run: approving such a trip
// restarts the run's window for every session, not only for the one that happened to trip it.
const RUN_TRIPS_SQL = `
SELECT payload->>'breaker' AS breaker, (extract(epoch FROM max("createdAt")) * 1000)::float8 AS "atMs"
FROM "Event"
WHERE "runId" = $1 AND type = 'breaker.tripped' AND payload->>'scope' = 'graphRun'
GROUP BY 1`;

/**
 * What the graph run looks like to one of its sessions' calls, read from the run's events (every
 * session's log, this one's buffered appends included: `db` must see them). Windows start at this
 * session's last trip of the breaker, or the run's last graph-wide trip of it in any session, so
 * resuming either restarts them.
 */
export async function readGraphRunMeasures(
  db: Queryable,
  input: { runId: string; nowMs: number; spendSinceMs: number; inFlightSinceMs: number | null },
): Promise<GraphRunMeasures> {
  const trips = await db.query({ name: 'looplane_breaker_run_trips_v1', text: RUN_TRIPS_SQL, values: [input.runId] });
  const lastTrip = (breaker: string) => (trips.rows as { breaker: string; atMs: number }[]).find((r) => r.breaker === breaker)?.atMs ?? 0;
  const from = Math.max(input.nowMs - SPEND_WINDOW_MS, input.spendSinceMs, lastTrip('spendRate'));
  const spent = await db.query({
    name: 'looplane_breaker_run_spend_v1',
    text: SPEND_SQL,
    values: [input.runId, new Date(from).toISOString(), new Date(input.nowMs).toISOString()],
  });
  const row = spent.rows[0] as { tokens: string; costMicros: string };
  const measures: GraphRunMeasures = { spend: { tokens: Number(row.tokens), costMicros: Number(row.costMicros) } };
  if (input.inFlightSinceMs === null) return measures;
  const flying = await db.query({
    name: 'looplane_breaker_in_flight_v1',
    text: IN_FLIGHT_SQL,
    values: [input.runId, new Date(Math.max(input.inFlightSinceMs, lastTrip('fanOut'))).toISOString()],
  });
  return { ...measures, inFlight: (flying.rows[0] as { n: number }).n };
}
