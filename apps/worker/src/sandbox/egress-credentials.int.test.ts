import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { selfSignedCertificate, startTlsServer, type TestCertificate } from '@looplane/sandbox/testing/tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { lazyEgressSource } from './test-egress-source';

// Credentials from team secrets go only over TLS the worker's proxy originates, and never come
// back: real bwrap, a real worker runtime, real HTTP and HTTPS servers on 127.0.0.1 (the HTTPS one
// with a self-signed certificate this worker is told to trust).
const root = mkdtempSync(join(tmpdir(), 'looplane-egress-credentials-'));
chmodSync(root, 0o711);
const key = randomBytes(32).toString('base64');
const egress = lazyEgressSource(() => s.t.url, key);
// Filled before the first proxy starts (the hooks below run before the suite's).
const trusted: string[] = [];

const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const LEGACY_KEY = `lk-${randomBytes(12).toString('hex')}`;
const seen: { port: number; url: string; headers: IncomingHttpHeaders }[] = [];
let certificate: TestCertificate;
let plain: Server;
let legacy: Server;
let tls: TlsServer;
let plainPort: number;
let legacyPort: number;
let tlsPort: number;

/** Echoes the credential headers it got (plain and base64); `/leak` answers the last token this server was sent, as a server that kept it would. */
function echo(req: IncomingMessage, res: ServerResponse): void {
  const port = req.socket.localPort ?? 0;
  const kept = seen.filter((r) => r.port === port && r.headers.authorization).at(-1)?.headers.authorization ?? '';
  seen.push({ port, url: req.url ?? '', headers: req.headers });
  const authorization = req.headers.authorization ?? '';
  const apiKey = String(req.headers['x-api-key'] ?? '');
  if (req.url === '/leak') return void res.end(`kept ${kept}`);
  if (req.url === '/split') {
    // Two writes, so two TLS records: the token's first half ends the first chunk the proxy reads.
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(`${'.'.repeat(4096)}${authorization.slice(0, 15)}`, () => res.end(`${authorization.slice(15)} end`));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-echo': authorization });
  res.end(JSON.stringify({ authorization, apiKey, b64: Buffer.from(authorization).toString('base64') }));
}

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  trusted.push(certificate.cert);
  plain = createServer(echo);
  legacy = createServer(echo);
  for (const server of [plain, legacy]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  plainPort = (plain.address() as AddressInfo).port;
  legacyPort = (legacy.address() as AddressInfo).port;
  ({ server: tls, port: tlsPort } = await startTlsServer(certificate, echo));
});
const s = setUpRuntimeSuite('egress-credentials', {
  leaseTtlMs: 3000,
  sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress, egressTrustedCertificates: trusted },
});
afterAll(async () => {
  for (const server of [plain, legacy, tls]) server.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

type Finished = { ok: boolean; output: string };
type Decided = { kind: string; port: number; allowed: boolean; reason: string; injectedHeaders: string[] };

describe('egress credentials over TLS only, and redacted on the way back (real bwrap, real proxy, real upstreams)', () => {
  it('plain HTTP gets no credential, HTTPS gets it; every echo is redacted in the tool output and the stored events', async () => {
    const teamId = await createTestTeam(s.t.db, {
      policy: {
        version: 1,
        default: 'allow',
        egress: {
          allow: [`127.0.0.1:${plainPort}`, `127.0.0.1:${tlsPort}`, `127.0.0.1:${legacyPort}`],
          credentials: [
            { host: '127.0.0.1', header: 'Authorization', secretRef: 'API_TOKEN' },
            { host: `127.0.0.1:${legacyPort}`, header: 'X-Api-Key', secretRef: 'LEGACY_KEY', insecure: true },
          ],
        },
      },
    });
    const box = new SecretBox(key);
    for (const [name, value] of [
      ['API_TOKEN', `Bearer ${TOKEN}`],
      ['LEGACY_KEY', LEGACY_KEY],
    ] as const)
      await s.t.db.teamSecret.create({ data: { teamId, name, ciphertext: box.seal(value), last4: value.slice(-4) } });
    const agent = await createTestAgent(s.t.db, teamId, {
      script: [
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${plainPort}/echo` } }] },
        { calls: [{ tool: 'http_request', args: { url: `https://127.0.0.1:${tlsPort}/echo` } }] },
        { calls: [{ tool: 'http_request', args: { url: `https://127.0.0.1:${tlsPort}/split` } }] },
        // The policy says this plain-HTTP credential may go in the clear; its echo still never reaches the sandbox.
        { calls: [{ tool: 'shell', args: { command: `curl -s http://127.0.0.1:${legacyPort}/echo` } }] },
        // Through a CONNECT tunnel the proxy sees nothing; the worker still keeps the token out of the result.
        {
          calls: [
            {
              tool: 'shell',
              args: { command: `cat > /tmp/ca.pem <<'PEM'\n${certificate.cert}PEM\ncurl -s --cacert /tmp/ca.pem https://127.0.0.1:${tlsPort}/leak` },
            },
          ],
        },
        { finish: 'done' },
      ],
    });
    const tools = s.worker.sandbox!.tools.map((t) => ({
      name: t.spec.name,
      description: t.spec.description,
      parameters: t.spec.parameters,
      idempotent: t.spec.idempotent,
    }));
    const ids = await createTestRun(s.t.db, agent, { config: { tools, toolLoading: 'eager', sandbox: { network: 'egress', egressHosts: [] } } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    await waitForRun(s.t.db, ids.runId, undefined, 60_000);
    const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished);
    const decided = events.filter((e) => e.type === 'egress.decided').map((e) => e.payload as Decided);
    const [overHttp, overHttps, split, legacyShell, tunnelled] = finished as [Finished, Finished, Finished, Finished, Finished];

    // What the upstreams were sent: nothing over plain HTTP, the token over TLS, the insecure key in the clear.
    const at = (port: number, url: string) => seen.find((r) => r.port === port && r.url === url)?.headers;
    expect(at(plainPort, '/echo')?.authorization).toBeUndefined();
    expect(at(tlsPort, '/echo')?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(at(tlsPort, '/split')?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(at(legacyPort, '/echo')).toMatchObject({ 'x-api-key': LEGACY_KEY });
    expect(at(legacyPort, '/echo')?.authorization).toBeUndefined();
    expect(at(tlsPort, '/leak')?.authorization).toBeUndefined();

    expect(overHttp).toMatchObject({ ok: true, output: expect.stringContaining('"authorization":""') });
    expect(overHttps).toMatchObject({ ok: true, output: expect.stringContaining('x-echo: [redacted]') });
    expect(overHttps.output).toContain('"authorization":"[redacted]"');
    expect(overHttps.output).toContain('"b64":"[redacted]');
    expect(split.output).toMatch(/\.{100}\[redacted\] end$/);
    expect(legacyShell.output).toContain('"apiKey":"[redacted]"');
    expect(tunnelled.output).toContain('kept [redacted]');

    expect(decided).toEqual([
      expect.objectContaining({
        kind: 'http',
        port: plainPort,
        injectedHeaders: [],
        reason: 'allowed; not injected over plain http:// (TLS only): Authorization',
      }),
      expect.objectContaining({ kind: 'http', port: tlsPort, injectedHeaders: ['Authorization'] }),
      expect.objectContaining({ kind: 'http', port: tlsPort, injectedHeaders: ['Authorization'] }),
      expect.objectContaining({ kind: 'http', port: legacyPort, injectedHeaders: ['X-Api-Key'] }),
      expect.objectContaining({ kind: 'connect', port: tlsPort, allowed: true, injectedHeaders: [] }),
    ]);
    // Never in an event, in any form (the tool results, and so what the model was given, included).
    const stored = JSON.stringify(events.map((e) => e.payload));
    for (const secret of [TOKEN, LEGACY_KEY, Buffer.from(`Bearer ${TOKEN}`).toString('base64').slice(0, 40)]) expect(stored).not.toContain(secret);
  }, 120_000);
});
