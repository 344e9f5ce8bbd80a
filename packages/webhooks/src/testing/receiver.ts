import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** `webhook-id`, the delivery's id. */
  id: string;
  body: string;
}

/** How the receiver answers a request: a status (and body), or hold it open until the receiver closes. */
export type ReceiverReply = { status: number; body?: string; headers?: Record<string, string> } | 'hold';

export interface TestReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Decides each answer (`index` counts from 0); default: 200. */
  reply: (request: ReceivedRequest, index: number) => ReceiverReply;
  /** Waits until at least `count` requests arrived (polling, up to `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Ends held requests and stops listening. */
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: it records every request and answers as
 * `reply` says (a held request stays open, as a slow receiver would keep it).
 */
export async function startReceiver(): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, id: String(req.headers['webhook-id'] ?? ''), body: Buffer.concat(chunks).toString('utf8') };
      const index = requests.push(request) - 1;
      const answer = receiver.reply(request, index);
      if (answer === 'hold') {
        held.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? `answer ${index}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    reply: () => ({ status: 200 }),
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${count} webhook requests (got ${requests.length})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return requests;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** What a verified delivery carries. */
export interface VerifiedWebhook {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Verifies a received request with the `standardwebhooks` package (the reference implementation
 * of the spec) against `secret`; throws its WebhookVerificationError when the signature, the
 * headers or the timestamp are wrong.
 */
export function verifyReceived(request: ReceivedRequest, secret: string): VerifiedWebhook {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
  return new Webhook(secret).verify(request.body, headers) as VerifiedWebhook;
}
