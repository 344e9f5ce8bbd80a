import { graphRunDelegationsInFlight, graphRunSpend, graphRunTrips, type Queryable } from '@looplane/db';
import { SPEND_WINDOW_MS } from '@looplane/engine';
import type { GraphRunMeasures } from '@looplane/policy';

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
  const trips = await graphRunTrips(db, input.runId);
  const lastTrip = (breaker: string) => trips.find((r) => r.breaker === breaker)?.atMs ?? 0;
  const from = Math.max(input.nowMs - SPEND_WINDOW_MS, input.spendSinceMs, lastTrip('spendRate'));
  const measures: GraphRunMeasures = { spend: await graphRunSpend(db, input.runId, new Date(from), new Date(input.nowMs)) };
  if (input.inFlightSinceMs === null) return measures;
  const inFlight = await graphRunDelegationsInFlight(db, input.runId, new Date(Math.max(input.inFlightSinceMs, lastTrip('fanOut'))));
  return { ...measures, inFlight };
}
