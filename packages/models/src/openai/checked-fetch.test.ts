import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { modelEndpointPolicy, parseAddressAllowlist, type Resolver } from '@looplane/shared/net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkedFetch } from './checked-fetch';

/** A real HTTP server on 127.0.0.1 that counts every TCP connection and records every request. */
async function listen(answer: (path: string) => { status: number; headers?: Record<string, string>; body?: string }) {
  const seen = { connections: 0, requests: [] as Array<{ path: string; host: string | undefined; authorization: string | undefined }> };
  const server: Server = createServer((req, res) => {
    seen.requests.push({ path: req.url ?? '', host: req.headers.host, authorization: req.headers.authorization });
    const reply = answer(req.url ?? '');
    res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const post = (fetch: ReturnType<typeof checkedFetch>, url: string) =>
  fetch(url, { method: 'POST', headers: { authorization: 'Bearer sk-secret-key', 'content-type': 'application/json' }, body: '{"model":"m"}' });

describe('the model client’s fetch', () => {
  it('refuses a loopback address before connecting, unless LOOPLANE_ENDPOINTS_ALLOW lists it', async () => {
    const { port, seen } = await listen(() => ({ status: 200, body: 'ok' }));
    await expect(post(checkedFetch(modelEndpointPolicy([])), `http://127.0.0.1:${port}/v1/chat/completions`)).rejects.toThrow(
      /^127\.0\.0\.1 is a loopback address: model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it/,
    );
    expect(seen.connections).toBe(0);
    const allowed = checkedFetch(modelEndpointPolicy(parseAddressAllowlist(`127.0.0.1:${port}`)));
    const response = await post(allowed, `http://127.0.0.1:${port}/v1/chat/completions`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(seen.requests).toEqual([{ path: '/v1/chat/completions', host: `127.0.0.1:${port}`, authorization: 'Bearer sk-secret-key' }]);
  });

  it('resolves the name for the connection and refuses it when any of its addresses is refused', async () => {
    const { port, seen } = await listen(() => ({ status: 200, body: 'ok' }));
    const resolve: Resolver = async () => [
      { address: '10.0.0.5', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(post(checkedFetch(modelEndpointPolicy([], resolve)), `http://models.looplane.test:${port}/v1/chat/completions`)).rejects.toThrow(
      /^models\.looplane\.test resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    expect(seen.connections).toBe(0);
  });

  it('connects a name to the one address it checked (the Host header keeps the name)', async () => {
    const { port, seen } = await listen(() => ({ status: 204 }));
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const fetch = checkedFetch(modelEndpointPolicy(parseAddressAllowlist('127.0.0.1'), resolve));
    const response = await post(fetch, `http://models.looplane.test:${port}/v1/chat/completions`);
    expect(response.status).toBe(204);
    expect(lookups).toBe(1);
    expect(seen.requests[0]).toMatchObject({ host: `models.looplane.test:${port}` });
  });

  it('follows no redirect: the key never travels on', async () => {
    const elsewhere = await listen(() => ({ status: 200, body: 'stolen' }));
    const { port } = await listen(() => ({ status: 307, headers: { location: `http://127.0.0.1:${elsewhere.port}/collect` } }));
    const fetch = checkedFetch(modelEndpointPolicy(parseAddressAllowlist('127.0.0.1')));
    const response = await post(fetch, `http://127.0.0.1:${port}/v1/chat/completions`);
    expect(response.status).toBe(307);
    expect(elsewhere.seen.connections).toBe(0);
  });
});
