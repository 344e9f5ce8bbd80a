// Credentials go only over TLS the proxy originates, and never come back: real proxy, real HTTP
// and HTTPS servers on 127.0.0.1 (a self-signed certificate the proxy is told to trust), real bwrap.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { selfSignedCertificate, startTlsServer, type TestCertificate } from '../testing/tls-fixture';
import type { EgressPolicyInput } from './egress-policy';
import { startEgressProxy, type EgressDecision, type EgressProxy } from './egress-proxy';

const TOKEN = 'ghp_Q7rT2vX9kLm4Np8Wz3Yb6Hc1Dj5Fg0Se2Ua7';
const AUTHORIZATION = `Bearer ${TOKEN}`;
const API_KEY = 'key-5e1b9c0d7a3f46e2b8c4';
const FILLER = '.'.repeat(4096);

let f: SandboxFixture;
let tools: SandboxFixture;
let certificate: TestCertificate;
let plain: Server;
let insecure: Server;
let tls: TlsServer;
let plainPort: number;
let insecurePort: number;
let tlsPort: number;
let proxy: EgressProxy;
let untrusting: EgressProxy;
const decisions: EgressDecision[] = [];
const seen: { port: number; url: string; headers: IncomingHttpHeaders }[] = [];
let releaseSplit: () => void = () => undefined;

/** Echoes the credential headers it got, in the body (plain and base64) and in a header. */
const echo = async (req: IncomingMessage, res: ServerResponse) => {
  seen.push({ port: req.socket.localPort ?? 0, url: req.url ?? '', headers: req.headers });
  const authorization = req.headers.authorization ?? '';
  const body = JSON.stringify({ authorization, apiKey: req.headers['x-api-key'] ?? '', b64: Buffer.from(authorization).toString('base64') });
  if (req.url === '/split') {
    // The credential's first half ends one chunk; the rest is sent only once the client has read from the first.
    const released = new Promise<void>((resolve) => (releaseSplit = resolve));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(FILLER + authorization.slice(0, 12));
    await released;
    res.end(`${authorization.slice(12)} end`);
  } else if (req.url === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip', 'x-echo': authorization }).end(gzipSync(body));
  else if (req.url === '/unreadable') res.writeHead(200, { 'content-encoding': 'compress' }).end(body);
  else res.writeHead(200, { 'content-type': 'application/json', 'x-echo': authorization, 'x-api-echo': String(req.headers['x-api-key'] ?? '') }).end(body);
};

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** One request on a proxy socket as the worker's http_request sends it; `onFirstData` runs once the first body bytes arrive. */
function fetchVia(socketPath: string, url: string, onFirstData?: () => void): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: url, headers: { host: new URL(url).host, 'accept-encoding': 'gzip' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        if (!body) onFirstData?.();
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  f = await sandboxFixture();
  certificate = await selfSignedCertificate();
  plain = createServer((req, res) => void echo(req, res));
  insecure = createServer((req, res) => void echo(req, res));
  plainPort = await listen(plain);
  insecurePort = await listen(insecure);
  ({ server: tls, port: tlsPort } = await startTlsServer(certificate, (req, res) => void echo(req, res)));
  const policy: EgressPolicyInput = {
    allow: [`127.0.0.1:${plainPort}`, `127.0.0.1:${insecurePort}`, `127.0.0.1:${tlsPort}`],
    credentials: [
      { host: '127.0.0.1', headers: { Authorization: AUTHORIZATION } },
      { host: '127.0.0.1', port: insecurePort, headers: { 'X-Api-Key': API_KEY }, insecure: true },
    ],
  };
  proxy = await startEgressProxy({
    socketPath: join(f.dir, 'proxy.sock'),
    workerSocketPath: join(f.dir, 'proxy.w.sock'),
    policy,
    trustedCertificates: [certificate.cert],
    onDecision: (d) => decisions.push(d),
  });
  untrusting = await startEgressProxy({ socketPath: join(f.dir, 'untrusting.sock'), policy });
  tools = await sandboxFixture({ egress: { socketPath: proxy.socketPath, workerSocketPath: proxy.workerSocketPath as string } });
});
afterAll(async () => {
  await proxy.close();
  await untrusting.close();
  for (const server of [plain, insecure, tls]) server.close();
  await tools.close();
  await f.close();
});

const sawFrom = (port: number) => seen.filter((r) => r.port === port).at(-1)?.headers;

describe('egress credentials: over TLS the proxy originates, to the named host, only', () => {
  it('plain http:// and CONNECT tunnels get no credential; the decision names what was withheld', async () => {
    const viaTool = await tools.tool('http_request', { url: `http://127.0.0.1:${plainPort}/echo` });
    expect(viaTool.ok).toBe(true);
    expect(sawFrom(plainPort)?.authorization).toBeUndefined();
    expect(decisions.at(-1)).toMatchObject({
      kind: 'http',
      port: plainPort,
      allowed: true,
      injectedHeaders: [],
      reason: 'allowed; not injected over plain http:// (TLS only): Authorization',
    });
    const fromSandbox = await f.sh(`curl -s http://127.0.0.1:${plainPort}/from-sandbox`, undefined, { egress: { socketPath: proxy.socketPath } });
    expect(fromSandbox.stdout).toContain('"authorization":""');
    expect(seen.at(-1)).toMatchObject({ port: plainPort, url: '/from-sandbox' });
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
    // HTTPS from inside the sandbox is a CONNECT tunnel: TLS end to end, nothing the proxy could add.
    const tunnelled = await f.sh(
      `cat > /tmp/ca.pem <<'PEM'\n${certificate.cert}PEM\ncurl -s --cacert /tmp/ca.pem https://127.0.0.1:${tlsPort}/tunnel`,
      undefined,
      { egress: { socketPath: proxy.socketPath } },
    );
    expect(tunnelled.stdout).toContain('"authorization":""');
    expect(decisions.at(-1)).toMatchObject({ kind: 'connect', port: tlsPort, allowed: true, injectedHeaders: [] });
  });

  it('https:// gets the credential over verified TLS, and its echo comes back redacted in the tool output', async () => {
    const result = await tools.tool('http_request', { url: `https://127.0.0.1:${tlsPort}/echo` });
    expect(sawFrom(tlsPort)?.authorization).toBe(AUTHORIZATION);
    expect(decisions.at(-1)).toMatchObject({ kind: 'http', port: tlsPort, allowed: true, reason: 'allowed', injectedHeaders: ['Authorization'] });
    expect(result.ok).toBe(true);
    expect(result.output).toContain('x-echo: [redacted]');
    expect(result.output).toContain('"authorization":"[redacted]"');
    expect(result.output).toContain('"b64":"[redacted]');
    expect(result.output).not.toContain(TOKEN);
    expect(result.output).not.toContain(Buffer.from(AUTHORIZATION).toString('base64').slice(0, 40));
    // Verified TLS: a proxy that does not trust the certificate fails the request before anything is sent.
    const before = seen.length;
    const untrusted = await fetchVia(untrusting.socketPath, `https://127.0.0.1:${tlsPort}/untrusted`);
    expect(untrusted.status).toBe(502);
    expect(untrusted.body).toMatch(/^upstream failed: .*certificate/);
    expect(seen.length).toBe(before);
  });

  it('an insecure entry is sent over plain HTTP, and its echo reaching the sandbox is redacted', async () => {
    const r = await f.sh(`curl -s -D - http://127.0.0.1:${insecurePort}/echo`, undefined, { egress: { socketPath: proxy.socketPath } });
    expect(sawFrom(insecurePort)).toMatchObject({ 'x-api-key': API_KEY });
    expect(sawFrom(insecurePort)?.authorization).toBeUndefined();
    expect(r.stdout).toContain('x-api-echo: [redacted]');
    expect(r.stdout).toContain('"apiKey":"[redacted]"');
    expect(r.stdout).not.toContain(API_KEY);
    expect(decisions.at(-1)).toMatchObject({
      port: insecurePort,
      injectedHeaders: ['X-Api-Key'],
      reason: 'allowed; not injected over plain http:// (TLS only): Authorization',
    });
  });

  it('redacts a credential split across chunks of a streamed body', async () => {
    const r = await fetchVia(proxy.workerSocketPath as string, `https://127.0.0.1:${tlsPort}/split`, () => releaseSplit());
    expect(sawFrom(tlsPort)?.authorization).toBe(AUTHORIZATION);
    expect(r.body).toBe(`${FILLER}[redacted] end`);
  });

  it('asks for an uncompressed body, decodes one sent compressed anyway, and refuses an encoding it cannot read', async () => {
    const r = await fetchVia(proxy.workerSocketPath as string, `https://127.0.0.1:${tlsPort}/gzip`);
    expect(sawFrom(tlsPort)?.['accept-encoding']).toBe('identity');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['x-echo']).toBe('[redacted]');
    expect(JSON.parse(r.body)).toMatchObject({ authorization: '[redacted]' });
    const unreadable = await fetchVia(proxy.workerSocketPath as string, `https://127.0.0.1:${tlsPort}/unreadable`);
    expect(unreadable.status).toBe(502);
    expect(unreadable.body).toMatch(/encoded as "compress"/);
    expect(unreadable.body).not.toContain(TOKEN);
  });
});
