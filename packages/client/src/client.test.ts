import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, createLooplaneClient, ProblemError, unwrap } from './index';

/**
 * What the client does with answers the real API never gives (the contract test covers the real
 * ones): a proxy's HTML error page in front of the server, and no server at all.
 */
let proxy: Server;
let proxyUrl: string;
const seen: Array<{ url: string | undefined; authorization: string | undefined }> = [];

beforeAll(async () => {
  proxy = createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<html><body>upstream is down</body></html>');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
});

describe('createLooplaneClient', () => {
  it('sends the token as Bearer below /api/v1, and makes a problem of a body that is none', async () => {
    const api = createLooplaneClient({ url: proxyUrl, token: 'llp_test' });
    const error = await unwrap(api.GET('/runs/{runId}', { params: { path: { runId: 'r 1' } } })).catch((e: unknown) => e);
    expect(seen.at(-1)).toEqual({ url: '/api/v1/runs/r%201', authorization: 'Bearer llp_test' });
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 502, message: '<html><body>upstream is down</body></html>', problem: { title: 'Bad Gateway', code: 'HTTP_502' } });
  });

  it('rejects with a ConnectionError naming the server and the reason when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await unwrap(createLooplaneClient({ url, token: 'llp_test' }).GET('/me')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toBe(`cannot reach ${url}: connect ECONNREFUSED ${url.slice('http://'.length)}`);
  });
});
