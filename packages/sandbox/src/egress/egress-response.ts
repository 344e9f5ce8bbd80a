import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { SecretRedactor } from './secret-redactor';

/** Body encodings the proxy can read, so that a compressed echo of a secret is redacted too. */
const DECODERS: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/** Whether a response to `method` with `status` has no body (RFC 9110: HEAD, 1xx, 204, 304). */
const bodiless = (method: string, status: number) => method === 'HEAD' || status < 200 || status === 204 || status === 304;

/**
 * Passes an upstream response back to the proxy's client (a sandboxed process, or the worker's
 * `http_request` and so the model): its headers but the hop-by-hop ones (`drop`), and its body.
 * When the run has secrets (`redactor.active`), every header value and the body have each
 * secret form replaced, across chunk boundaries; a compressed body is decoded first (the proxy
 * asks for none, but a server may send it anyway), and one in an encoding the proxy cannot read
 * is refused with 502 rather than passed on unread. `Content-Length` is dropped then: redaction
 * changes the length.
 */
export function relayResponse(response: IncomingMessage, res: ServerResponse, method: string, drop: ReadonlySet<string>, redactor: SecretRedactor): void {
  const status = response.statusCode ?? 502;
  const headers: OutgoingHttpHeaders = {};
  const redact = (value: string) => (redactor.active ? redactor.redactHeader(value) : value);
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined && !drop.has(name)) headers[name] = Array.isArray(value) ? value.map(redact) : redact(value);
  }
  if (!redactor.active) {
    res.writeHead(status, headers);
    response.pipe(res);
    return;
  }
  if (bodiless(method, status)) {
    res.writeHead(status, headers);
    response.resume();
    res.end();
    return;
  }
  const encoding = String(headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder = encoding === 'identity' || encoding === '' ? null : DECODERS[encoding];
  if (decoder === undefined) {
    response.destroy();
    res
      .writeHead(502, { 'content-type': 'text/plain', connection: 'close' })
      .end(`egress refused the response: its body is encoded as "${encoding}", which the proxy cannot read to keep credentials out of it\n`);
    return;
  }
  delete headers['content-encoding'];
  delete headers['content-length'];
  res.writeHead(status, headers);
  const done = () => undefined; // An error destroys both ends: the client sees the body cut short.
  if (decoder) pipeline(response, decoder(), redactor.stream(), res, done);
  else pipeline(response, redactor.stream(), res, done);
}
