import type { Db } from '@looplane/db';
import { roleAtLeast } from '@looplane/shared';
import { resolvePrincipal, resolveTeamRole, type SessionClaims } from '../auth/principal';
import { crossSiteRefusal } from '../auth/cross-site';
import { readBounded, MAX_BODY_BYTES } from '../http';
import { backtestPolicyInput } from '../routers/policies.schema';
import { idSchema } from '../schemas';
import { backtestPolicy } from '../services/policy-backtest.service';
import { encode, jsonError, sseFrame, SSE_HEADERS } from './sse';

export interface BacktestStreamOptions {
  db: Db;
  session: SessionClaims | null;
  /** Origins besides the request's own that may POST with the session cookie (the public URL). */
  allowedOrigins?: readonly string[];
  onError?: (error: unknown) => void;
}

/** The first problems of a refused body, as `path: message` (the same messages as `policies.backtest`). */
function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return `Invalid input: ${issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`)
    .join('; ')}`;
}

/**
 * `POST /api/teams/{teamId}/policy-backtest`: `policies.backtest` with progress, as SSE. The body
 * is the procedure's input as plain JSON (`document`, ISO `since`/`until`, `limit`); any member
 * may run it (viewer, like the procedure). Frames: `event: progress` after every page of 1,000
 * recorded calls, then one `event: result` (the procedure's answer) or `event: error`. Refusals
 * before the stream starts are plain JSON with a real status (401, 403, 404, 400, 413). A client
 * that goes away stops the backtest at the next page.
 */
export async function handlePolicyBacktestStream(request: Request, teamId: string, options: BacktestStreamOptions): Promise<Response> {
  const crossSite = crossSiteRefusal(request, options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {});
  if (crossSite) return jsonError(403, crossSite);
  const principal = await resolvePrincipal(options.db, { authorization: request.headers.get('authorization'), session: options.session });
  if (!principal) return jsonError(401, 'Sign in or send a valid API token');
  const role = idSchema.safeParse(teamId).success ? await resolveTeamRole(options.db, principal, teamId) : null;
  if (!role) return jsonError(404, 'No such team');
  if (!roleAtLeast(role, 'viewer')) return jsonError(403, `This action needs the viewer role; you are ${role}`);
  const body = await readBounded(request, MAX_BODY_BYTES);
  if (body === null) return jsonError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return jsonError(400, 'The body must be a JSON object: { document, since, until?, limit? }');
  }
  const parsed = backtestPolicyInput.safeParse(json);
  if (!parsed.success) return jsonError(400, describeIssues(parsed.error.issues));

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // Awaiting each write holds the backtest at the client's pace: nothing queues up unread.
  const send = async (event: string, data: unknown) => {
    await writer.ready;
    await writer.write(encode(sseFrame(data, { event })));
  };
  void (async () => {
    try {
      const result = await backtestPolicy(options.db, teamId, parsed.data, { signal: request.signal, onProgress: (progress) => send('progress', progress) });
      await send('result', result);
    } catch (error) {
      if (request.signal.aborted) return;
      options.onError?.(error);
      const message = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.message : 'The backtest failed';
      await send('error', { message }).catch(() => undefined);
    } finally {
      await writer.close().catch(() => undefined);
    }
  })();
  return new Response(readable, { headers: SSE_HEADERS });
}
