import { decodeEvent } from '@looplane/engine/events';

/** The fields of a stored event the codec reads; the rest of a row passes through. */
interface StoredFields {
  seq: number;
  type: string;
  version: number;
  payload: unknown;
}

/**
 * A stored row as the wire carries it: `version` and `payload` upcast and validated by the
 * engine's codec (defaults applied), so every client reads the current shapes. A row the codec
 * refuses (a newer worker's type or version, a corrupt payload) is returned as stored, for the
 * client's decoder to show as unknown: one unreadable row must not end a stream.
 */
export function upcastStored<R extends StoredFields>(row: R): R {
  try {
    // The codec passes `at` through without reading it; the row keeps its own timestamp.
    const event = decodeEvent({ seq: row.seq, type: row.type, v: row.version, at: '', payload: row.payload });
    return { ...row, version: event.v, payload: event.payload };
  } catch {
    return row;
  }
}
