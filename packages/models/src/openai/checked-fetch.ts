import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pinnedLookup, resolveOutboundTarget, type OutboundPolicy } from '@looplane/shared/net';

/** The `fetch` the OpenAI SDK calls. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Idle pooled connections are closed after this long. */
const IDLE_SOCKET_MS = 15_000;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(message: IncomingMessage, method: string): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value fetch cannot hold (not a byte string) is dropped, as fetch itself would refuse the response.
    }
  }
  if (NULL_BODY.has(status) || method === 'HEAD') {
    message.resume();
    return new Response(null, { status, statusText: message.statusMessage ?? '', headers });
  }
  const body = Readable.toWeb(Readable.from(chunksOf(message))) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
}

/** The body's chunks; a connection that closes mid-body says so (Node calls it just "aborted"). */
async function* chunksOf(message: IncomingMessage): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of message) yield chunk as Buffer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') throw new Error('the connection closed before the answer ended', { cause: error });
    throw error;
  }
}

/**
 * A `fetch` for the model SDK whose every request goes only where `policy` allows: the URL's
 * host is resolved and every address checked ({@link resolveOutboundTarget}) for each request,
 * and a new connection is made to that very address ({@link pinnedLookup}: nothing resolves the
 * name again in between, so DNS rebinding cannot slip past the check; TLS still verifies the host
 * name). Pooled connections were made the same way. No redirect is followed: the SDK gets the
 * 3xx as it is, so a key never travels on to wherever a server points it. A refused address
 * throws before any connection is made.
 */
export function checkedFetch(policy: OutboundPolicy): Fetch {
  const agents = {
    http: new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    https: new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const target = await resolveOutboundTarget(request.url, policy);
    signal?.throwIfAborted();
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    // fetch would decompress; this client does not, so ask for the body as it is.
    headers['accept-encoding'] = 'identity';
    if (body) headers['content-length'] = String(body.length);
    const secure = target.url.protocol === 'https:';
    return new Promise<Response>((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(
        target.url,
        {
          method: request.method,
          headers,
          agent: secure ? agents.https : agents.http,
          lookup: pinnedLookup(target),
          ...(signal ? { signal } : {}),
        },
        (message) => resolve(toResponse(message, request.method)),
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
