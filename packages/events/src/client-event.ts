import { decodeEvent, isEventType, type EventPayload, type EventType } from '@looplane/engine/events';
import type { WireEvent } from './wire-event';

/** Where an event sits in its run, the same for every variant. */
interface Envelope {
  eventNo: number;
  sessionId: string;
  seq: number;
  /** ISO-8601. */
  createdAt: string;
  version: number;
}

/** An event of a type this code knows, upcast to its current version and validated. Discriminated on `type`. */
export type KnownEvent<T extends EventType = EventType> = T extends EventType ? Envelope & { type: T; payload: EventPayload<T> } : never;

/**
 * An event this code cannot read: a type or version newer than it (a newer worker wrote it) or a
 * payload its schema refuses. Shown with its stored type and why, never thrown: one such event
 * must not stop a timeline or a `tail`.
 */
export interface UnknownEvent extends Envelope {
  type: 'unknown';
  /** The type as stored, e.g. `tool.paused`. */
  wireType: string;
  payload: unknown;
  /** Why it could not be read, for people. */
  problem: string;
}

/** Every event a client reads: a known engine event or {@link UnknownEvent}. */
export type ClientEvent = KnownEvent | UnknownEvent;

/**
 * Decodes an event from the wire through the engine's codec, which upcasts every version the
 * engine ever wrote exactly as the engine reads its own log. Never throws.
 */
export function decodeWireEvent(wire: WireEvent): ClientEvent {
  const envelope = { eventNo: wire.eventNo, sessionId: wire.sessionId, seq: wire.seq, createdAt: wire.createdAt };
  const unknown = (problem: string): UnknownEvent => ({
    ...envelope,
    version: wire.version,
    type: 'unknown',
    wireType: wire.type,
    payload: wire.payload,
    problem,
  });
  if (!isEventType(wire.type)) return unknown('an event type this version of Looplane does not know');
  try {
    const event = decodeEvent({ seq: wire.seq, type: wire.type, v: wire.version, at: wire.createdAt, payload: wire.payload });
    return { ...envelope, version: event.v, type: event.type, payload: event.payload } as KnownEvent;
  } catch (error) {
    return unknown(error instanceof Error ? error.message : String(error));
  }
}
