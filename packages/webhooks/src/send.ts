import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolveWebhookTarget, type EgressOptions } from './egress';

/** How much of a response body an attempt keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** An attempt that has no response within this long has failed. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookAttemptRequest extends EgressOptions {
  url: string;
  body: string;
  /** The signed headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  headers: Record<string, string>;
  timeoutMs?: number;
  /** Aborts the attempt (the worker is stopping): its outcome says `aborted`. */
  signal?: AbortSignal;
}

export interface WebhookAttemptOutcome {
  /** A 2xx answer: delivered. */
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** The first KiB of the response body, as text. */
  responseExcerpt: string | null;
  /** Why it failed: refused address, connection error, timeout, a redirect not followed. */
  error: string | null;
  /** Stopped by `signal`: no outcome to judge the endpoint by. */
  aborted: boolean;
}

/** Text Postgres can store: NUL becomes U+FFFD (the decoder already replaced broken sequences). */
const storable = (text: string) => text.replaceAll('\u0000', '\uFFFD');

/** Reads at most {@link RESPONSE_EXCERPT_BYTES} of the body, then lets the rest go. */
function readExcerpt(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(storable(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8')));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

/**
 * One delivery attempt: the URL's host is resolved and checked ({@link resolveWebhookTarget})
 * now, for this attempt, and the connection made to that very address (TLS still verifies the
 * host name). A POST of the body with the signed headers; no redirect is followed; 2xx is
 * delivered, anything else (a refused address, a connection error, a timeout) is a failure.
 * Never throws: the outcome says what happened.
 */
export async function sendWebhook(request: WebhookAttemptRequest): Promise<WebhookAttemptOutcome> {
  const started = Date.now();
  const timeoutMs = request.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const outcome = (fields: Partial<WebhookAttemptOutcome>): WebhookAttemptOutcome => ({
    delivered: false,
    statusCode: null,
    responseExcerpt: null,
    error: null,
    aborted: false,
    ...fields,
    latencyMs: Date.now() - started,
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
  const stop = () => controller.abort(new Error('the worker stopped during the attempt'));
  if (request.signal?.aborted) stop();
  request.signal?.addEventListener('abort', stop, { once: true });
  try {
    const target = await Promise.race([
      resolveWebhookTarget(request.url, request),
      new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true })),
    ]);
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return await new Promise<WebhookAttemptOutcome>((resolve) => {
      const req = send(
        target.url,
        {
          method: 'POST',
          // A connection of its own, made to the checked address: no pooled socket, no second lookup.
          agent: false,
          lookup: pinnedLookup(target),
          signal: controller.signal,
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(request.body),
            'user-agent': 'Looplane-Webhooks/1',
          },
        },
        (response) => {
          void readExcerpt(response).then((excerpt) => {
            const status = response.statusCode ?? 0;
            const delivered = status >= 200 && status < 300;
            const location = status >= 300 && status < 400 ? response.headers.location : undefined;
            resolve(
              outcome({
                delivered,
                statusCode: status,
                responseExcerpt: excerpt || null,
                error: delivered
                  ? null
                  : location
                    ? `answered ${status}; redirects are not followed (to ${storable(location).slice(0, 500)})`
                    : `answered ${status}`,
              }),
            );
          });
        },
      );
      req.on('error', (error) => {
        const reason = controller.signal.aborted ? (controller.signal.reason as Error).message : error.message;
        resolve(outcome({ error: storable(reason).slice(0, 1000), aborted: request.signal?.aborted ?? false }));
      });
      req.end(request.body);
    });
  } catch (error) {
    // The target was refused or did not resolve.
    return outcome({ error: storable((error as Error).message).slice(0, 1000), aborted: request.signal?.aborted ?? false });
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', stop);
  }
}
