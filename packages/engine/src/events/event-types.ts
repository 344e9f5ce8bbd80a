import type { z } from 'zod';
import type { payloadSchemas } from './payloads';

export type EventType = keyof typeof payloadSchemas;
export type EventPayload<T extends EventType> = z.output<(typeof payloadSchemas)[T]>;

/**
 * A stored event: a row `(sessionId, seq)` with `type`, `version` (`v`), `payload` and `createdAt` (`at`,
 * ISO-8601 from the clock port). Discriminated on `type`.
 */
export type EngineEvent<T extends EventType = EventType> = T extends EventType
  ? { seq: number; type: T; v: number; at: string; payload: EventPayload<T> }
  : never;

/** An event before the store numbered it. */
export type NewEvent<T extends EventType = EventType> = T extends EventType ? { type: T; v: number; at: string; payload: EventPayload<T> } : never;

/** The serialised form, as read back from a store: anything may be wrong with it until decoded. */
export interface RawEvent {
  seq: number;
  type: string;
  v: number;
  at: string;
  payload: unknown;
}
