import type { NewEvent } from './event-types';

/**
 * An event's payload as the log keeps it. Each text is stored once: a `run.finished` that names
 * the final answer its result is (`resultSeq`) leaves the text out, since that answer's
 * `model.responded` holds it; the fold takes it from there, and the row's writer still has it for
 * the run's own columns. Every other payload is stored as it is.
 */
export function storedPayload(event: NewEvent): NewEvent['payload'] {
  if (event.type !== 'run.finished' || event.payload.resultSeq === undefined) return event.payload;
  const { result: _inAnswer, ...rest } = event.payload;
  return rest;
}
