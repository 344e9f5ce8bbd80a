import type { Db } from '@looplane/db';

/** One event of a run as clients see it (tRPC `runs.events`, and the `data:` of the SSE stream). */
export interface RunEventView {
  /** Per-run monotonic number: the SSE `id:`, and the `after` cursor of `runs.events`. */
  eventNo: number;
  sessionId: string;
  seq: number;
  type: string;
  version: number;
  payload: unknown;
  createdAt: Date;
}

/**
 * Reads a run's events with `eventNo > after`, in order, at most `limit` (the `(runId, eventNo)`
 * unique index makes this one index range scan). Postgres is the only source of event bodies.
 */
export async function readEventsAfter(db: Db, runId: string, after: number, limit: number): Promise<RunEventView[]> {
  const rows = await db.event.findMany({
    where: { runId, eventNo: { gt: BigInt(after) } },
    orderBy: { eventNo: 'asc' },
    take: limit,
    select: { eventNo: true, sessionId: true, seq: true, type: true, version: true, payload: true, createdAt: true },
  });
  return rows.map((row) => ({ ...row, eventNo: Number(row.eventNo) }));
}

/** An event already serialised for the SSE stream: its number and its `data:` JSON. */
export interface EventFrame {
  eventNo: number;
  json: string;
}

/**
 * {@link readEventsAfter} for the SSE stream: Postgres builds each event's JSON (the same fields
 * as {@link RunEventView}, `createdAt` as ISO-8601 UTC), so a wake-up costs one indexed read and no
 * parse/serialise round trip in Node. This is the hot path of live fan-out.
 */
export async function readEventFramesAfter(db: Db, runId: string, after: number, limit: number): Promise<EventFrame[]> {
  const rows = await db.$queryRaw<Array<{ eventNo: number; json: string }>>`
    SELECT "eventNo"::int8::float8 AS "eventNo",
           json_build_object(
             'eventNo', "eventNo", 'sessionId', "sessionId", 'seq', seq, 'type', type, 'version', version, 'payload', payload,
             'createdAt', to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
           )::text AS json
    FROM "Event"
    WHERE "runId" = ${runId} AND "eventNo" > ${after}
    ORDER BY "eventNo"
    LIMIT ${limit}`;
  return rows.map((row) => ({ eventNo: Number(row.eventNo), json: row.json }));
}
