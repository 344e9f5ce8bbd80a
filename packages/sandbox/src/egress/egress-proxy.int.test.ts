import { createServer as createHttpServer, request, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { connect } from 'node:net';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { startEgressProxy, type EgressDecision, type EgressProxy, type EgressRequest } from './egress-proxy';

let f: SandboxFixture;
let upstream: HttpServer;
let port: number;
let echo: Server;
let echoPort: number;
let proxy: EgressProxy;
let privateProxy: EgressProxy;
const decisions: EgressDecision[] = [];
const seen: Record<string, string | string[] | undefined>[] = [];

/** One request through the proxy socket, as a sandboxed client would send it. */
function viaProxy(socketPath: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: url, headers: { host: URL.canParse(url) ? new URL(url).host : 'x', ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connectVia(socketPath: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString();
      if (data.includes('\r\n\r\n') && data.startsWith('HTTP/1.1 200')) {
        if (!data.includes('ping')) socket.write('ping');
        else {
          socket.end();
          resolve(data);
        }
      }
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  f = await sandboxFixture();
  upstream = createHttpServer((req, res) => {
    seen.push(req.headers);
    res.end(`path=${req.url}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  port = (upstream.address() as AddressInfo).port;
  echo = createServer((s) => s.on('data', (d) => s.write(d)));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
  proxy = await startEgressProxy({
    socketPath: join(f.dir, 'proxy.sock'),
    policy: {
      allow: [`127.0.0.1:${port}`, `127.0.0.1:${echoPort}`, `localhost:${port}`],
      // The upstream speaks plain HTTP: the entry says so (credentials go over TLS only otherwise).
      credentials: [{ host: '127.0.0.1', port, headers: { Authorization: 'Bearer SECRET-TOKEN', 'X-Api-Key': 'k' }, insecure: true }],
    },
    onDecision: (d) => decisions.push(d),
  });
  privateProxy = await startEgressProxy({ socketPath: join(f.dir, 'private.sock'), policy: { allow: [`localhost:${port}`], allowPrivateAddresses: true } });
});
afterAll(async () => {
  await proxy.close();
  await privateProxy.close();
  await new Promise((resolve) => upstream.close(resolve));
  await new Promise((resolve) => echo.close(resolve));
  await f.close();
});

describe('egress proxy', () => {
  it('forwards allowed plain HTTP, replacing any client-sent credential with the configured one', async () => {
    const r = await viaProxy(proxy.socketPath, `http://127.0.0.1:${port}/x?y=1`, { Authorization: 'Bearer forged', 'Proxy-Authorization': 'p' });
    expect(r).toEqual({ status: 200, body: 'path=/x?y=1' });
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer SECRET-TOKEN', 'x-api-key': 'k' });
    expect(seen.at(-1)?.['proxy-authorization']).toBeUndefined();
    expect(decisions.at(-1)).toEqual({
      kind: 'http',
      method: 'GET',
      host: '127.0.0.1',
      port,
      allowed: true,
      reason: 'allowed',
      injectedHeaders: ['Authorization', 'X-Api-Key'],
    });
  });

  it('refuses hosts and ports off the allowlist with 403 and records why', async () => {
    expect((await viaProxy(proxy.socketPath, `http://127.0.0.1:${port + 1}/`)).status).toBe(403);
    expect((await viaProxy(proxy.socketPath, 'http://example.com/')).body).toMatch(/not on the egress allowlist/);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, host: 'example.com', port: 80 });
    expect((await viaProxy(proxy.socketPath, '/relative')).status).toBe(400);
  });

  it('refuses a name that resolves to a private address unless the policy allows private addresses', async () => {
    const r = await viaProxy(proxy.socketPath, `http://localhost:${port}/`);
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/resolves to a private address/);
    expect((await viaProxy(privateProxy.socketPath, `http://localhost:${port}/`)).status).toBe(200);
  });

  it('tunnels CONNECT to an allowed host:port and refuses others', async () => {
    expect(await connectVia(proxy.socketPath, `127.0.0.1:${echoPort}`)).toMatch(/^HTTP\/1.1 200 Connection Established\r\n\r\nping$/);
    expect(decisions.at(-1)).toMatchObject({ kind: 'connect', allowed: true, port: echoPort });
    expect(await connectVia(proxy.socketPath, '127.0.0.1:5432')).toMatch(/^HTTP\/1.1 403/);
    expect(decisions.at(-1)).toMatchObject({ kind: 'connect', allowed: false, port: 5432 });
  });

  it('serves http_request for the tools, never showing the injected credential to the model', async () => {
    const g = await sandboxFixture({ egress: { socketPath: proxy.socketPath } });
    try {
      const ok = await g.tool('http_request', { url: `http://127.0.0.1:${port}/api` });
      expect(ok.ok).toBe(true);
      expect(ok.output).toMatch(/^HTTP 200\n[\s\S]*\n\npath=\/api$/);
      expect(ok.output).not.toContain('SECRET-TOKEN');
      const denied = await g.tool('http_request', { url: 'https://example.com/' });
      expect(denied.ok).toBe(false);
      expect(denied.output).toMatch(/^HTTP 403/);
    } finally {
      await g.close();
    }
  });
});

describe('egress proxy: per-request rules', () => {
  let ruled: EgressProxy;
  const asked: EgressRequest[] = [];
  const ruledDecisions: EgressDecision[] = [];

  beforeAll(async () => {
    ruled = await startEgressProxy({
      socketPath: join(f.dir, 'ruled.sock'),
      workerSocketPath: join(f.dir, 'ruled.w.sock'),
      policy: {
        allow: [`127.0.0.1:${port}`, `127.0.0.1:${echoPort}`],
        credentials: [{ host: '127.0.0.1', port, headers: { Authorization: 'Bearer SECRET-TOKEN' }, insecure: true }],
      },
      decideRequest: (request) => {
        asked.push(request);
        if (request.kind === 'http' && new URL(request.url).pathname.startsWith('/private'))
          return { allowed: false, reason: 'denied by policy rule "no-private"' };
        if (request.method === 'POST') return { allowed: false, reason: 'policy rule "writes" requires approval' };
        if (request.kind === 'http' && request.url.endsWith('/broken')) throw new Error('the policy could not be read');
        return { allowed: true, reason: 'allowed by policy rule "reads"' };
      },
      onDecision: (d) => ruledDecisions.push(d),
    });
  });
  afterAll(async () => {
    await ruled.close();
  });

  it("asks for every request the allowlist passed, refuses with the verdict's reason and records it", async () => {
    asked.length = 0;
    expect(await viaProxy(ruled.socketPath, `http://127.0.0.1:${port}/public?q=1`)).toEqual({ status: 200, body: 'path=/public?q=1' });
    expect(ruledDecisions.at(-1)).toMatchObject({ kind: 'http', allowed: true, reason: 'allowed by policy rule "reads"', injectedHeaders: ['Authorization'] });
    expect(await viaProxy(ruled.socketPath, `http://127.0.0.1:${port}/private/x`)).toEqual({
      status: 403,
      body: 'egress denied: denied by policy rule "no-private"\n',
    });
    expect(ruledDecisions.at(-1)).toMatchObject({ kind: 'http', method: 'GET', allowed: false, reason: 'denied by policy rule "no-private"' });
    // Off the allowlist: refused at the boundary, the rules are not asked.
    expect((await viaProxy(ruled.socketPath, `http://127.0.0.1:${port + 1}/`)).body).toMatch(/not on the egress allowlist/);
    expect(asked.map((r) => r.kind === 'http' && new URL(r.url).pathname)).toEqual(['/public', '/private/x']);
    expect(asked[0]).toEqual({ kind: 'http', method: 'GET', url: `http://127.0.0.1:${port}/public?q=1`, host: '127.0.0.1', port });
  });

  it('refuses a request it cannot decide', async () => {
    expect(await viaProxy(ruled.socketPath, `http://127.0.0.1:${port}/broken`)).toEqual({
      status: 403,
      body: 'egress denied: the request could not be decided: the policy could not be read\n',
    });
  });

  it('asks for a CONNECT tunnel with host and port only', async () => {
    asked.length = 0;
    expect(await connectVia(ruled.socketPath, `127.0.0.1:${echoPort}`)).toMatch(/^HTTP\/1.1 200 Connection Established/);
    expect(asked).toEqual([{ kind: 'connect', method: 'CONNECT', host: '127.0.0.1', port: echoPort }]);
    expect(ruledDecisions.at(-1)).toMatchObject({ kind: 'connect', allowed: true, reason: 'allowed by policy rule "reads"' });
  });

  it('decides curl from inside the sandbox; the worker socket serves the tools without the rules, behind the same allowlist', async () => {
    const post = await f.sh(`curl -s -X POST -d x http://127.0.0.1:${port}/issues`, undefined, { egress: { socketPath: ruled.socketPath } });
    expect(post.stdout).toBe('egress denied: policy rule "writes" requires approval\n');
    expect(ruledDecisions.at(-1)).toMatchObject({ kind: 'http', method: 'POST', allowed: false, reason: 'policy rule "writes" requires approval' });
    // The worker socket is the worker's alone, and never inside a sandbox.
    expect((await stat(ruled.workerSocketPath as string)).mode & 0o777).toBe(0o600);
    const g = await sandboxFixture({ egress: { socketPath: ruled.socketPath, workerSocketPath: ruled.workerSocketPath as string } });
    try {
      asked.length = 0;
      const approved = await g.tool('http_request', { url: `http://127.0.0.1:${port}/issues`, method: 'POST', body: 'x' });
      expect(approved).toMatchObject({ ok: true, output: expect.stringContaining('path=/issues') });
      expect(asked).toEqual([]);
      expect(ruledDecisions.at(-1)).toMatchObject({ method: 'POST', allowed: true, reason: 'allowed', injectedHeaders: ['Authorization'] });
      expect((await g.tool('http_request', { url: `http://127.0.0.1:${port + 1}/` })).output).toMatch(/^HTTP 403/);
    } finally {
      await g.close();
    }
  });
});
