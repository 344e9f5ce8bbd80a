import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from './root';
import { createTrpcContext, type ApiDeps } from './context';
import { retryAfterOf } from './services/run-start-limits';
import { crossSiteRefusal } from './auth/cross-site';
import type { SessionClaims } from './auth/principal';

/** Largest request body the API accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Calls one tRPC batch may carry (the dashboard's client batches at most this many): without a
 * cap one POST could create hundreds of runs, past every per-call check.
 */
export const MAX_BATCH_SIZE = 20;

export interface TrpcHttpOptions {
  deps: ApiDeps;
  /** Path prefix the router is mounted at, e.g. `/api/trpc`. */
  endpoint: string;
  /** The claims of a verified session cookie, if any (next-auth JWT). */
  session: SessionClaims | null;
  ip: string | null;
  /** Origins besides the request's own that may send cookie-authenticated state changes (the public URL). */
  allowedOrigins?: readonly string[];
  onInternalError?: (error: unknown, path: string | undefined) => void;
}

/** An error in tRPC's own response shape (superjson envelope), so tRPC clients show the message. */
function trpcShapedError(status: number, code: string, message: string): Response {
  const body = { error: { json: { message, code: -32600, data: { code, httpStatus: status } } } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Reads at most `limit` bytes of a body; null when it is larger. */
export async function readBounded(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Serves `/api/trpc` over the Fetch API (used by the Next.js route handler). A cookie-authenticated
 * POST from another site gets 403 (`auth/cross-site.ts`) and bodies over {@link MAX_BODY_BYTES}
 * get 413, both before any parsing; everything else is plain tRPC.
 */
export async function handleTrpcRequest(request: Request, options: TrpcHttpOptions): Promise<Response> {
  const crossSite = crossSiteRefusal(request, options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {});
  if (crossSite) return trpcShapedError(403, 'FORBIDDEN', crossSite);
  let req = request;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const body = await readBounded(request, MAX_BODY_BYTES);
    if (body === null) return trpcShapedError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes`);
    req = new Request(request.url, { method: request.method, headers: request.headers, body });
  }
  return fetchRequestHandler({
    endpoint: options.endpoint,
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    // A refusal that says when to try again (the run-start limits) says it in `Retry-After` too;
    // in a batch, the longest wait of its calls.
    responseMeta({ errors }) {
      const seconds = Math.max(0, ...errors.map((error) => retryAfterOf(error) ?? 0));
      return seconds > 0 ? { headers: { 'retry-after': String(seconds) } } : {};
    },
    createContext: () =>
      createTrpcContext(options.deps, {
        authorization: request.headers.get('authorization'),
        session: options.session,
        ip: options.ip,
      }),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') options.onInternalError?.(error, path);
    },
  });
}
