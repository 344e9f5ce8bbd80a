import { AppError } from '@looplane/shared';
import type { z } from 'zod';
import type { EngineEvent, EventType, RawEvent } from './event-types';
import { payloadSchemas } from './payloads';

/** Migrates a payload from version k to k+1. */
export type Upcaster = (payload: unknown) => unknown;

export interface EventCodec {
  /** The version new events of `type` are written with. */
  currentVersion(type: string): number;
  /** Validates a stored event and upcasts it to the current version. */
  decode(raw: RawEvent): RawEvent;
}

/**
 * Versioning: a type's current version is 1 + the number of its upcasters; upcaster i migrates
 * version i+1 to i+2. Old rows are never rewritten: they are upcast when read, so old logs stay
 * readable forever. A row newer than this code is refused rather than misread.
 */
export function createEventCodec(schemas: Record<string, z.ZodType>, upcasters: Partial<Record<string, readonly Upcaster[]>>): EventCodec {
  const currentVersion = (type: string) => 1 + (upcasters[type]?.length ?? 0);
  return {
    currentVersion,
    decode(raw) {
      const schema = schemas[raw.type];
      if (!schema) throw new AppError('INTERNAL', `event ${raw.seq} has unknown type ${raw.type}`);
      const current = currentVersion(raw.type);
      if (!Number.isInteger(raw.v) || raw.v < 1 || raw.v > current) {
        throw new AppError('INTERNAL', `event ${raw.seq} (${raw.type}) has version ${raw.v}; this engine reads 1..${current}`);
      }
      let payload = raw.payload;
      for (let v = raw.v; v < current; v++) payload = (upcasters[raw.type]?.[v - 1] ?? ((p: unknown) => p))(payload);
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError('INTERNAL', `event ${raw.seq} (${raw.type}) is malformed at ${issue?.path.join('.') || 'payload'}: ${issue?.message}`);
      }
      return { seq: raw.seq, type: raw.type, v: current, at: raw.at, payload: parsed.data };
    },
  };
}

/**
 * v2 of `session.forked`, `tool.finished` and `delegation.returned` may mark a replay (a fork that
 * serves its parent's recorded results, a result served instead of run). A v1 row is never one, so
 * it reads unchanged; the version is raised so that an engine that predates replays refuses a
 * replay's log instead of dropping the marks and taking served results for real ones (or a replay
 * branch for a fork that runs its tools).
 */
const unchanged: Upcaster = (payload) => payload;
// v2 of `run.finished` may name its result's event (`resultSeq`) instead of holding the text; a v1
// row always holds it. Raised so that an older engine refuses such a log instead of folding a
// finished run without its result.
const engineUpcasters: Partial<Record<EventType, readonly Upcaster[]>> = {
  'run.finished': [unchanged],
  'session.forked': [unchanged],
  'tool.finished': [unchanged],
  'delegation.returned': [unchanged],
};
const engineCodec = createEventCodec(payloadSchemas, engineUpcasters);

/** Every event type the engine writes, in the order `payloads.ts` lists them. */
export const EVENT_TYPES = Object.freeze(Object.keys(payloadSchemas)) as readonly EventType[];
const known = new Set<string>(EVENT_TYPES);

/** True when `type` is one of the engine's event types (a newer engine's type is not). */
export function isEventType(type: string): type is EventType {
  return known.has(type);
}

/** Current version of an engine event type. */
export function eventVersion(type: EventType): number {
  return engineCodec.currentVersion(type);
}

/** Decodes a stored row (validated, upcast) into an engine event. Throws AppError INTERNAL when the log is corrupt. */
export function decodeEvent(raw: RawEvent): EngineEvent {
  return engineCodec.decode(raw) as EngineEvent;
}
