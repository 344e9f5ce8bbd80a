import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ApiDeps } from '../context';
import { handleTrpcRequest } from '../http';
import { buildOpenApiDocument } from '../rest/openapi';
import { handleRestRequest } from '../rest/rest-http';
import { handleRunStream, type StreamDeps } from '../streams/run-stream';
import { handleTeamActivityStream } from '../streams/team-stream';
import { handleWorkspaceDownload } from '../streams/workspace-download';
import { handleTriggerHook } from '../hooks/trigger-hook';
import type { TriggerRateLimiter } from '../hooks/trigger-rate-limit';

export interface ServedApi {
  url: string;
  /** Internal errors of REST requests (a response that does not match its schema among them); a test expects none. */
  restErrors: unknown[];
  /** Cuts every open connection (a flaky network), without stopping the server. */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * The API's HTTP surface on a plain Node server, routed like the Next app (`/api/trpc/*`,
 * `/api/runs/{id}/stream`, `/api/teams/{id}/activity`, `/api/sessions/{id}/workspace.tar.gz`,
 * `/api/v1/*` with every REST response checked against its schema, `/api/openapi.json`, and
 * `/api/hooks/{id}` when given a trigger rate limiter), Bearer tokens only. For tests, the CLI's
 * tests and the benchmarks: the same handlers the Next route handlers call, without Next.
 */
export async function serveApi(deps: ApiDeps, streams: StreamDeps, port = 0, hooks?: { limiter: TriggerRateLimiter }): Promise<ServedApi> {
  const restErrors: unknown[] = [];
  const onRestError = (error: unknown) => restErrors.push(error);
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    // A response sent before the body was read (a 413 on Content-Length, a 401 while the client
    // still uploads): read and drop the rest, as HTTP servers do before closing. A socket closed
    // with unread data is reset, and the reset discards the answer the client had not read yet.
    res.on('finish', () => {
      if (req.complete) return;
      req.removeAllListeners('data');
      req.on('data', () => undefined);
      req.resume();
    });
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers: req.headers as Record<string, string>,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
      signal: controller.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    const run = /^\/api\/runs\/([^/]+)\/stream$/.exec(url.pathname);
    const team = /^\/api\/teams\/([^/]+)\/activity$/.exec(url.pathname);
    const download = /^\/api\/sessions\/([^/]+)\/workspace\.tar\.gz$/.exec(url.pathname);
    const hook = hooks ? /^\/api\/hooks\/([^/]+)$/.exec(url.pathname) : null;
    const response =
      hook && hooks
        ? await handleTriggerHook(request, decodeURIComponent(hook[1]!), { deps, limiter: hooks.limiter, ip: req.socket.remoteAddress ?? null })
        : run
          ? await handleRunStream(request, decodeURIComponent(run[1]!), streams, { session: null })
          : team
            ? await handleTeamActivityStream(request, decodeURIComponent(team[1]!), streams, { session: null })
            : download
              ? await handleWorkspaceDownload(request, decodeURIComponent(download[1]!), deps, { session: null })
              : url.pathname.startsWith('/api/trpc/')
                ? await handleTrpcRequest(request, { deps, endpoint: '/api/trpc', session: null, ip: req.socket.remoteAddress ?? null })
                : url.pathname === '/api/v1' || url.pathname.startsWith('/api/v1/')
                  ? await handleRestRequest(request, { deps, ip: req.socket.remoteAddress ?? null, checkResponses: true, onInternalError: onRestError })
                  : url.pathname === '/api/openapi.json'
                    ? Response.json(buildOpenApiDocument())
                    : new Response('not found', { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (done || res.destroyed) break;
      res.write(value);
    }
    res.end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    restErrors,
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
