import { queryableOf, readEventFrameRows, type Db, type EventFrameRow } from '@looplane/db';
import { upcastStored } from '@looplane/events';

/**
 * One event of a run as clients see it (tRPC `runs.events`, REST, and the `data:` of the SSE
 * stream): `version` and `payload` as the engine's codec reads them (upcast, validated, defaults
 * applied), or as stored when the codec cannot read the row (see `upcastStored`).
 */
export interface RunEventView extends Omit<EventFrameRow, 'createdAt'> {
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
  return rows.map((row) => upcastStored({ ...row, eventNo: Number(row.eventNo) }));
}

/** An event already serialised for the SSE stream: its number and its `data:` JSON. */
export interface EventFrame {
  eventNo: number;
  json: string;
}

/** A row's frame: the same fields as {@link RunEventView}, the payload through the engine's codec. */
export function eventFrame(row: EventFrameRow): EventFrame {
  const event = upcastStored(row);
  const data = {
    eventNo: event.eventNo,
    sessionId: event.sessionId,
    seq: event.seq,
    type: event.type,
    version: event.version,
    payload: event.payload,
    createdAt: event.createdAt,
  };
  return { eventNo: row.eventNo, json: JSON.stringify(data) };
}

/**
 * {@link readEventsAfter} for the SSE stream, serialised: one indexed read; Postgres formats
 * `createdAt`, the engine's codec reads the payload (as every client then does again).
 */
export async function readEventFramesAfter(db: Db, runId: string, after: number, limit: number): Promise<EventFrame[]> {
  return (await readEventFrameRows(queryableOf(db), runId, after, limit)).map(eventFrame);
}
