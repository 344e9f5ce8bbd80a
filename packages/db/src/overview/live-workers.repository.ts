import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { SessionStatus } from '../vocabulary/statuses';
import { utcFromMs } from '../sql/epoch-ms';

/** Epoch milliseconds as a timestamp of UTC wall time, as Prisma stores `DateTime` (exact). */

/** A live worker's probe row and how many running sessions it holds the lease of. */
export interface LiveWorkerRow {
  workerId: string;
  hostname: string;
  concurrency: number | null;
  selectedDriver: string;
  available: boolean;
  reason: string | null;
  lastSeenAt: Date;
  /** Running sessions it holds an unexpired lease of (every team's: workers are shared). */
  active: number;
  /** The sandbox drivers it offers that work on its host, weakest isolation first as probed. */
  drivers: string[];
}

const LIVE_WORKERS_SQL = namedQuery({
  name: 'looplane_overview_live_workers_v2',
  params: { now_ms: param.bigint, seen_since_ms: param.bigint },
  text: `
SELECT w."workerId", w.hostname, w.concurrency, w."selectedDriver", w.available, w.reason,
  (extract(epoch FROM w."lastSeenAt") * 1000)::float8 AS "lastSeenAtMs",
  (SELECT count(*) FROM "Session" s WHERE s.status = '${SessionStatus.running}' AND s."leaseExpiresAt" > ${utcFromMs('now_ms')} AND s."leaseOwner" = w."workerId")::float8 AS active,
  -- A probe is offered when the worker says so; rows written before that field was recorded offer their selected driver.
  (SELECT coalesce(jsonb_agg(d->>'driver' ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(w.drivers) = 'array' THEN w.drivers ELSE '[]'::jsonb END) WITH ORDINALITY AS e(d, n)
    WHERE (d->>'available') = 'true' AND coalesce((d->>'offered') = 'true', d->>'driver' = w."selectedDriver")) AS drivers
FROM "WorkerSandboxProbe" w
WHERE w."stoppedAt" IS NULL AND w."lastSeenAt" > ${utcFromMs('seen_since_ms')}
ORDER BY w.hostname, w."workerId"
LIMIT 100`,
}).returns<Omit<LiveWorkerRow, 'lastSeenAt'> & { lastSeenAtMs: number }>();

/**
 * Workers whose probe row was refreshed after `seenSince` and that did not stop (at most 100, by
 * hostname), with the running sessions each holds a lease of at `now`.
 */
export async function liveWorkerRows(db: Queryable, now: Date, seenSince: Date): Promise<LiveWorkerRow[]> {
  const rows = rowsOf(LIVE_WORKERS_SQL, await db.query(LIVE_WORKERS_SQL.bind({ now_ms: now.getTime(), seen_since_ms: seenSince.getTime() })));
  return rows.map(({ lastSeenAtMs, ...row }) => ({ ...row, lastSeenAt: new Date(lastSeenAtMs) }));
}
