import type { Db } from '@looplane/db';
import type { LiveBus } from '@looplane/queue';
import { resolvePrincipal, resolveTeamRole, type SessionClaims } from '../auth/principal';
import { MAX_EVENT_NO } from '../routers/runs.schema';
import { idSchema } from '../schemas';
import { eventReader } from './event-reader';
import { liveStream } from './live-stream';
import { jsonError, SSE_HEADERS } from './sse';

/** What the event streams need: Postgres for the truth, the live bus for wake-ups. */
export interface StreamDeps {
  db: Db;
  bus: LiveBus;
  /** A comment line after this much silence (default 15 s). */
  heartbeatMs?: number;
  /**
   * Re-read Postgres after this long without a wake-up (default 5 s): a lost pub/sub message (Redis
   * restart, a subscription still being set up) delays a subscriber by at most this much.
   */
  pollMs?: number;
  /** Events per read and per write to the client (default 500). */
  batchSize?: number;
  onError?: (error: unknown) => void;
}

export interface StreamRequest {
  /** The verified session cookie's claims, if any (the `Authorization` header wins when present). */
  session: SessionClaims | null;
}

/** `Last-Event-ID` header (what EventSource sends on reconnect) or `?lastEventId=`; null when malformed. */
function lastEventIdOf(request: Request): number | null {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('lastEventId') ?? '0';
  if (!/^\d{1,10}$/.test(raw.trim())) return null;
  const value = Number(raw.trim());
  return value <= MAX_EVENT_NO ? value : null;
}

/** The most events `?tail=` may ask for. */
const MAX_TAIL = 100_000;

/**
 * `?tail=N`: start N events before the run's end (a page that holds nothing opens at once, without
 * asking for the run's last event number first). Only when no position is given; null when absent,
 * undefined when malformed.
 */
function tailOf(request: Request): number | null | undefined {
  const raw = new URL(request.url).searchParams.get('tail');
  if (raw === null || request.headers.has('last-event-id') || new URL(request.url).searchParams.has('lastEventId')) return null;
  if (!/^\d{1,6}$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return value >= 1 && value <= MAX_TAIL ? value : undefined;
}

/**
 * `GET /api/runs/{runId}/stream`: the run's events as SSE, `id:` = event number, `data:` = the
 * event JSON, after `Last-Event-ID` (or `?lastEventId=`), or the last `?tail=N` events. 401
 * without a valid session or bearer token; 404 for a run the caller's team does not own (or no
 * run at all), so run ids of other teams do not leak; 400 for a malformed position.
 */
export async function handleRunStream(request: Request, runId: string, deps: StreamDeps, auth: StreamRequest): Promise<Response> {
  const principal = await resolvePrincipal(deps.db, { authorization: request.headers.get('authorization'), session: auth.session });
  if (!principal) return jsonError(401, 'Sign in or send a valid API token');
  const run = idSchema.safeParse(runId).success ? await deps.db.run.findUnique({ where: { id: runId }, select: { teamId: true, lastEventNo: true } }) : null;
  if (!run || !(await resolveTeamRole(deps.db, principal, run.teamId))) return jsonError(404, 'No such run');
  const tail = tailOf(request);
  if (tail === undefined) return jsonError(400, `tail must be a number of events between 1 and ${MAX_TAIL}`);
  const after = tail === null ? lastEventIdOf(request) : Math.max(0, Number(run.lastEventNo) - tail);
  if (after === null) return jsonError(400, `Last-Event-ID must be an event number between 0 and ${MAX_EVENT_NO}`);
  return new Response(runEventStream(deps, runId, after, request.signal), { headers: SSE_HEADERS });
}

/**
 * The stream itself. Order matters for "no gap": subscribe to the run's channel first, then read
 * the backlog from Postgres, then on every wake-up read `eventNo > last sent`. An event committed
 * while subscribing is found by the backlog read; one committed after it wakes us up. The bus
 * message is only a wake-up, so nothing is sent twice: the cursor only moves forward.
 * Pull-based: nothing is read while the client is not reading (backpressure).
 */
function runEventStream(deps: StreamDeps, runId: string, after: number, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const batchSize = deps.batchSize ?? 500;
  // Shared by every stream of the process: concurrent wake-ups become one query (event-reader.ts).
  const reader = eventReader(deps.db, batchSize);
  let cursor = after;
  let dirty = true;
  return liveStream(
    {
      subscribe: (wake) =>
        deps.bus.onRunEvent(runId, () => {
          dirty = true;
          wake();
        }),
      // Reconnect delay for EventSource clients.
      opening: async () => 'retry: 2000\n\n',
      next: async (timedOut) => {
        if (timedOut) dirty = true;
        if (!dirty) return null;
        dirty = false;
        const events = await reader.read(runId, cursor);
        if (events.length === batchSize) dirty = true;
        if (events.length === 0) return null;
        cursor = events[events.length - 1]!.eventNo;
        return events.map((e) => `id: ${e.eventNo}\ndata: ${e.json}\n\n`).join('');
      },
    },
    { heartbeatMs: deps.heartbeatMs ?? 15_000, pollMs: deps.pollMs ?? 5_000, signal, onError: deps.onError },
  );
}
