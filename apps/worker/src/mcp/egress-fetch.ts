import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Opens a CONNECT tunnel to `host:port` through the egress proxy's unix socket. */
function tunnel(socketPath: string, host: string, port: number, signal?: AbortSignal | null): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    signal?.addEventListener('abort', () => fail(new Error('aborted')), { once: true });
    socket.once('error', fail);
    socket.once('connect', () => socket.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`));
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.off('error', fail);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      // The proxy says why it refused (host not on the run's egress list, a private address).
      if (status !== 200) return fail(new Error(`the egress proxy refused ${host}:${port} (${status || 'no answer'})`));
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init?.headers).entries());
}

/**
 * A fetch whose every connection is a CONNECT tunnel through the run's egress proxy (unix socket),
 * so an HTTP MCP server is reached only as the proxy allows, and each crossing is recorded as the
 * proxy records any other. TLS runs end to end inside the tunnel.
 */
export function egressFetch(socketPath: string): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    const secure = url.protocol === 'https:';
    const port = Number(url.port || (secure ? 443 : 80));
    const raw = await tunnel(socketPath, url.hostname, port, init?.signal);
    const socket = secure ? tlsConnect({ socket: raw, servername: url.hostname }) : raw;
    const body =
      init?.body === undefined || init.body === null
        ? null
        : typeof init.body === 'string'
          ? init.body
          : Buffer.from(await new Response(init.body).arrayBuffer());
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        {
          method: init?.method ?? 'GET',
          host: url.hostname,
          port,
          path: `${url.pathname}${url.search}`,
          headers: { ...headersOf(init), host: url.host, connection: 'close' },
          createConnection: () => socket,
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (res: IncomingMessage) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) headers.append(name, v);
            else if (value !== undefined) headers.set(name, value);
          }
          const status = res.statusCode ?? 502;
          const stream = status === 204 || status === 304 || init?.method === 'HEAD' ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, headers }));
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  };
}
