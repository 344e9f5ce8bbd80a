import type { Queryable } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The reads behind a run's SSE stream: events after a cursor, by the `(runId, eventNo)` unique
 * index (one index range scan per run). Postgres formats `createdAt` and the event number comes back
 * as float8, so the rows are ready to frame whichever driver read them.
 */

/** An event row as the stream frames it: `createdAt` already ISO-8601 UTC text. */
export interface EventFrameRow {
  /** Per-run monotonic number: the SSE `id:`, and the `after` cursor of `runs.events`. */
  eventNo: number;
  sessionId: string;
  seq: number;
  type: string;
  version: number;
  payload: unknown;
  createdAt: string;
}

/** The frame columns of `"Event"` (alias `e`), in the order of {@link EventFrameRow}. */
const EVENT_FRAME_COLUMNS = `e."eventNo"::float8 AS "eventNo", e."sessionId", e.seq, e.type, e.version, e.payload,
  to_char(e."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

const FRAMES_AFTER_SQL = namedQuery({
  name: 'looplane_event_frames_after_v1',
  params: { run_id: param.text, after: param.bigint, limit: param.int },
  text: `
    SELECT ${EVENT_FRAME_COLUMNS}
    FROM "Event" e
    WHERE e."runId" = :run_id AND e."eventNo" > :after
    ORDER BY e."eventNo"
    LIMIT :limit`,
}).returns<EventFrameRow>();

/** A run's events with `eventNo > after`, in order, at most `limit`. */
export async function readEventFrameRows(db: Queryable, runId: string, after: number, limit: number): Promise<EventFrameRow[]> {
  return rowsOf(FRAMES_AFTER_SQL, await db.query(FRAMES_AFTER_SQL.bind({ run_id: runId, after, limit })));
}

const FRAMES_OF_RUNS_SQL = namedQuery({
  name: 'looplane_event_frames_of_runs_v1',
  params: { cursors: param.jsonb, limit: param.int },
  text: `
    SELECT c.k, ${EVENT_FRAME_COLUMNS}
    FROM jsonb_to_recordset(:cursors) AS c(k int, r text, a int8)
    CROSS JOIN LATERAL (
      SELECT "eventNo", "sessionId", seq, type, version, payload, "createdAt"
      FROM "Event" WHERE "runId" = c.r AND "eventNo" > c.a ORDER BY "eventNo" LIMIT :limit
    ) e
    ORDER BY c.k, e."eventNo"`,
}).returns<EventFrameRow & { k: number }>();

/**
 * {@link readEventFrameRows} for many cursors in one statement (a LATERAL index range scan per
 * cursor): each cursor's rows, in the order of `cursors`.
 */
export async function readEventFrameRowsOfRuns(
  db: Queryable,
  cursors: ReadonlyArray<{ runId: string; after: number }>,
  limit: number,
): Promise<EventFrameRow[][]> {
  const input = JSON.stringify(cursors.map((c, k) => ({ k, r: c.runId, a: c.after })));
  const rows = rowsOf(FRAMES_OF_RUNS_SQL, await db.query(FRAMES_OF_RUNS_SQL.bind({ cursors: input, limit })));
  const byCursor: EventFrameRow[][] = cursors.map(() => []);
  // Each row keeps its `k` (no copy per row on the stream's hot path); a frame reads only its fields.
  for (const row of rows) byCursor[row.k]!.push(row);
  return byCursor;
}
