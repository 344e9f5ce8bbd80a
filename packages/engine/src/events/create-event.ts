import { AppError } from '@looplane/shared';
import type { z } from 'zod';
import type { Clock } from './clock';
import { eventVersion } from './event-codec';
import type { EventPayload, EventType, NewEvent } from './event-types';
import { payloadSchemas } from './payloads';

/**
 * Builds a validated event for callers outside the loop: the worker starting a run, adding a
 * message, recording an approval's decision, returning a child's result or resuming. (The API
 * never writes events; it changes rows and wakes the session, whose worker records them.)
 */
export function createEvent<T extends EventType>(type: T, payload: z.input<(typeof payloadSchemas)[T]>, clock: Clock): NewEvent<T> {
  const parsed = (payloadSchemas[type] as z.ZodType).safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError('BAD_REQUEST', `invalid ${type} event: ${where}${issue?.message ?? 'unknown problem'}`);
  }
  return draft(type, parsed.data as EventPayload<T>, clock.now());
}

let lastMs = Number.NaN;
let lastIso = '';

/** `atMs` as ISO-8601; the events of a burst share their millisecond, so the last one is kept. */
function isoOf(atMs: number): string {
  if (atMs !== lastMs) {
    lastIso = new Date(atMs).toISOString();
    lastMs = atMs;
  }
  return lastIso;
}

/** An event from trusted engine code: typed, not re-validated (the store's decode validates on read). */
export function draft<T extends EventType>(type: T, payload: EventPayload<T>, atMs: number): NewEvent<T> {
  return { type, v: eventVersion(type), at: isoOf(atMs), payload } as NewEvent<T>;
}
