import type { ApiDeps } from '../context';
import { DEFAULT_UPLOAD_LIMITS } from '../services/upload-limits';
import { assertRole, authenticateRest, type RestCallerIdentity } from './rest-auth';
import { readFileBody, type ReceivedFile } from './rest-file-body';
import { claimIdempotencyKey, completeIdempotencyKey, idempotencyHash, idempotencyKeyOf, releaseIdempotencyKey } from './rest-idempotency';
import { parseBody, parseParams, parseQuery } from './rest-input';
import { toJsonValue } from './rest-json';
import { REST_BASE } from './rest-links';
import { createRouteMatcher } from './rest-match';
import { errorResponse, RestProblem, type RequestPart } from './rest-problem';
import { createRestCaller, type RestRoute } from './rest-route';
import { restRoutes } from './routes';

export interface RestHttpOptions {
  deps: ApiDeps;
  ip: string | null;
  onInternalError?: (error: unknown) => void;
  /**
   * Check every response body against its route's schema, answering 500 on a mismatch (tests,
   * so that any drift of a procedure from the document fails them; off in production).
   */
  checkResponses?: boolean;
}

const matchRoute = createRouteMatcher(restRoutes);

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
}

interface Parsed {
  params: unknown;
  query: unknown;
  body: { raw: unknown; value: unknown };
  file: ReceivedFile | null;
}

/** Runs the route's procedure(s) for the token and shapes the success response. */
async function run(route: RestRoute, identity: RestCallerIdentity, input: Parsed, options: RestHttpOptions): Promise<{ status: number; body: unknown }> {
  const result = await route.handle({
    caller: createRestCaller(identity.context),
    teamId: identity.teamId,
    params: input.params,
    query: input.query,
    body: input.body.value,
    file: input.file,
  });
  // A download's text is sent as it is; everything else as the JSON a client receives.
  const body = route.download ? result : toJsonValue(result);
  if (options.checkResponses) {
    const checked = route.response.safeParse(body);
    if (!checked.success) throw new Error(`${route.operationId}: the response does not match its schema: ${checked.error.message}`);
  }
  return { status: route.status, body };
}

/** A route's success (or replayed) response, with the headers its body implies. */
function success(route: RestRoute, input: Parsed, status: number, body: unknown, replayed: boolean): Response {
  if (route.download) {
    return new Response(String(body), {
      status,
      headers: {
        'content-type': route.download.mediaType,
        'content-disposition': `attachment; filename="${route.download.filename(input.params)}"`,
        'cache-control': 'private, no-store',
      },
    });
  }
  const headers = route.headers(body, { params: input.params, query: input.query });
  return jsonResponse(status, body, replayed ? { ...headers, 'idempotent-replayed': 'true' } : headers);
}

/** The route's work under an `Idempotency-Key`: claim it, replay it, or run and record the result. */
async function runIdempotent(route: RestRoute, identity: RestCallerIdentity, input: Parsed, key: string, options: RestHttpOptions): Promise<Response> {
  const db = options.deps.db;
  const hash = idempotencyHash(route.operationId, input.params, input.body.raw);
  const claim = await claimIdempotencyKey(db, { teamId: identity.teamId, tokenId: identity.tokenId }, key, hash);
  if (claim.kind === 'replay') return success(route, input, claim.status, claim.body, true);
  let outcome: { status: number; body: unknown };
  try {
    outcome = await run(route, identity, input, options);
  } catch (error) {
    await releaseIdempotencyKey(db, claim.id);
    throw error;
  }
  await completeIdempotencyKey(db, claim.id, outcome.status, outcome.body);
  return success(route, input, outcome.status, outcome.body, false);
}

/**
 * Serves `/api/v1/*` over the Fetch API (the Next.js route handler and the tests' Node server
 * call it). Order: route (404, 405 with `Allow`), token (401, 403), role (403), input (400,
 * 413, 415, 422), then the tRPC procedure through a caller with the token's context, so the
 * roles, team scope, events and audit rows are the procedures' own. Every error is
 * `application/problem+json`.
 */
export async function handleRestRequest(request: Request, options: RestHttpOptions): Promise<Response> {
  const url = new URL(request.url);
  let part: RequestPart = 'body';
  try {
    if (!url.pathname.startsWith(`${REST_BASE}/`) && url.pathname !== REST_BASE) throw new RestProblem(404, 'NOT_FOUND', `No route ${url.pathname}`);
    const match = matchRoute(request.method, url.pathname.slice(REST_BASE.length));
    if (match.kind === 'not-found')
      throw new RestProblem(404, 'NOT_FOUND', `No route ${request.method} ${url.pathname}; the operations are listed in /api/openapi.json`);
    if (match.kind === 'method-not-allowed') {
      throw new RestProblem(405, 'METHOD_NOT_SUPPORTED', `${url.pathname} does not take ${request.method}; it takes ${match.allow.join(', ')}`, {
        headers: { allow: match.allow.join(', ') },
      });
    }
    const { route } = match;
    part = route.body || route.file ? 'body' : 'query';
    const identity = await authenticateRest(options.deps, request, options.ip);
    assertRole(identity, route.role);
    const params = parseParams(route, match.params);
    const query = parseQuery(route, url.searchParams);
    const input: Parsed = route.file
      ? {
          params,
          query,
          body: { raw: undefined, value: undefined },
          file: await readFileBody(request, options.deps.uploads?.maxBytes ?? DEFAULT_UPLOAD_LIMITS.maxBytes),
        }
      : { params, query, body: await parseBody(route, request), file: null };
    const key = route.idempotent ? idempotencyKeyOf(request) : null;
    if (key !== null) return await runIdempotent(route, identity, input, key, options);
    const outcome = await run(route, identity, input, options);
    return success(route, input, outcome.status, outcome.body, false);
  } catch (error) {
    return errorResponse(error, part, options.onInternalError);
  }
}
