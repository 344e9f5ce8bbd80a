import type { TeamActivity } from '@looplane/queue';
import { resolvePrincipal, resolveTeamRole } from '../auth/principal';
import { idSchema } from '../schemas';
import type { StreamDeps, StreamRequest } from './run-stream';
import { liveStream } from './live-stream';
import { jsonError, sseFrame, SSE_HEADERS } from './sse';

/** Messages held for a slow client; past this the client is told to resync instead. */
const MAX_QUEUED = 1000;

/**
 * `GET /api/teams/{teamId}/activity`: run status changes and the pending-approval count of a
 * team, as SSE, so the dashboard never polls. Activity is not stored, so there is no replay: the
 * first message is `{ kind: "ready" }` (also sent after an overflow) and means "refetch what you
 * show"; then the current approval count; then live messages as the bus delivers them.
 */
export async function handleTeamActivityStream(request: Request, teamId: string, deps: StreamDeps, auth: StreamRequest): Promise<Response> {
  const principal = await resolvePrincipal(deps.db, { authorization: request.headers.get('authorization'), session: auth.session });
  if (!principal) return jsonError(401, 'Sign in or send a valid API token');
  const role = idSchema.safeParse(teamId).success ? await resolveTeamRole(deps.db, principal, teamId) : null;
  if (!role) return jsonError(404, 'No such team');
  return new Response(teamActivityStream(deps, teamId, request.signal), { headers: SSE_HEADERS });
}

type Outgoing = TeamActivity | { kind: 'ready' };

/** The stream behind {@link handleTeamActivityStream}: pull-based, heartbeats while idle, unsubscribes on cancel or abort. */
function teamActivityStream(deps: StreamDeps, teamId: string, signal?: AbortSignal): ReadableStream<Uint8Array> {
  let queue: Outgoing[] = [];
  return liveStream(
    {
      subscribe: (wake) =>
        deps.bus.onTeamActivity(teamId, (message) => {
          queue.push(message);
          if (queue.length > MAX_QUEUED) queue = [{ kind: 'ready' }];
          wake();
        }),
      // Read after subscribing, so a change in between is not lost.
      opening: async () => {
        const pending = await deps.db.approval.count({ where: { teamId, status: 'pending' } });
        return `retry: 2000\n\n${sseFrame({ kind: 'ready' })}${sseFrame({ kind: 'approvals.count', pending })}`;
      },
      next: async () => {
        if (queue.length === 0) return null;
        const batch = queue;
        queue = [];
        return batch.map((m) => sseFrame(m)).join('');
      },
    },
    { heartbeatMs: deps.heartbeatMs ?? 15_000, signal, onError: deps.onError },
  );
}
