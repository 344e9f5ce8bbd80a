import { z } from 'zod';

/**
 * An event as the server sends it: the `data:` of `/api/runs/{id}/stream`, an item of the REST
 * events page (`GET /api/v1/runs/{runId}/events`) and of `runs.events` / `sessions.events`.
 * `version` and `payload` are the engine codec's: upcast to the version this server writes. A row
 * the server's codec cannot read (a newer worker's type or version) is sent as stored.
 */
export const wireEventSchema = z.object({
  eventNo: z.int().nonnegative(),
  sessionId: z.string().min(1),
  seq: z.int().nonnegative(),
  type: z.string().min(1),
  version: z.int().positive(),
  payload: z.unknown(),
  // JSON carries ISO-8601 text; tRPC (superjson) carries a Date.
  createdAt: z.union([z.string().min(1), z.date().transform((d) => d.toISOString())]),
});
export type WireEvent = z.output<typeof wireEventSchema>;

/**
 * Validates the envelope of one event from the wire. Throws when it is not an event at all (a
 * server bug, never a future event type: those have the same envelope and decode as unknown).
 */
export function parseWireEvent(data: unknown): WireEvent {
  const parsed = wireEventSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`not an event: ${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'malformed'}`);
  }
  return parsed.data;
}
