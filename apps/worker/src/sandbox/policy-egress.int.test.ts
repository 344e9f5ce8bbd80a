import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';
import { lazyEgressSource } from './test-egress-source';

// Real bwrap, a real worker runtime, a real HTTP server on the host: the egress proxy's allowlist
// and credentials come from the team's active policy and its encrypted secrets.
const root = mkdtempSync(join(tmpdir(), 'looplane-policy-egress-'));
chmodSync(root, 0o711);
const key = randomBytes(32).toString('base64');
const egress = lazyEgressSource(() => s.t.url, key);
const s = setUpRuntimeSuite('policy-egress', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

const SECRET = `tok-${randomBytes(12).toString('hex')}`;
const seen: { port: number; url: string; headers: IncomingHttpHeaders }[] = [];
const servers: Server[] = [];
const ports: number[] = [];

beforeAll(async () => {
  for (let i = 0; i < 3; i++) {
    const server = createServer((req, res) => {
      seen.push({ port: req.socket.localPort ?? 0, url: req.url ?? '', headers: req.headers });
      res.end(`served ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    ports.push((server.address() as { port: number }).port);
  }
});
afterAll(async () => {
  for (const server of servers) server.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

type Finished = { callId: string; ok: boolean; output: string };
type Decided = { host: string; port: number; allowed: boolean; reason: string; injectedHeaders: string[]; callId: string };

const catalogue = () => sandboxCatalogue(s.worker.sandbox!);

async function runWith(policy: Record<string, unknown>, script: ScriptTurn[], sandbox: RunConfigInput['sandbox'], secrets: Record<string, string> = {}) {
  const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', ...policy } });
  const box = new SecretBox(key);
  for (const [name, value] of Object.entries(secrets))
    await s.t.db.teamSecret.create({ data: { teamId, name, ciphertext: box.seal(value), last4: value.slice(-4) } });
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager', ...(sandbox ? { sandbox } : {}) } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  await waitForRun(s.t.db, ids.runId, undefined, 45_000);
  const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
  return {
    events,
    finished: events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished),
    decided: events.filter((e) => e.type === 'egress.decided').map((e) => e.payload as Decided),
  };
}

describe('egress from the team policy (real bwrap, real proxy, real upstream)', () => {
  it('injects the credential from the team secret; the sandbox never sees it; off-list and secret-less hosts get 403 with the reason recorded', async () => {
    const [withSecret, missing, offList] = ports as [number, number, number];
    const { events, finished, decided } = await runWith(
      {
        egress: {
          allow: [`127.0.0.1:${withSecret}`, `127.0.0.1:${missing}`],
          credentials: [
            // A plain-HTTP upstream: `insecure` lets the credential go in the clear (TLS only otherwise).
            { host: `127.0.0.1:${withSecret}`, header: 'Authorization', secretRef: 'API_TOKEN', insecure: true },
            { host: `127.0.0.1:${missing}`, header: 'X-Api-Key', secretRef: 'NOT_CREATED' },
          ],
        },
      },
      [
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${withSecret}/api`, headers: { Authorization: 'Bearer forged' } } }] },
        // Plain HTTP from a process inside the sandbox goes through the same proxy.
        { calls: [{ tool: 'shell', args: { command: `curl -s http://127.0.0.1:${withSecret}/from-shell` } }] },
        {
          calls: [
            {
              tool: 'shell',
              args: {
                command: `env; cat /proc/self/environ; A=${SECRET.slice(0, 10)}; B=${SECRET.slice(10)}; grep -rl "$A$B" /workspace /tmp /etc /run /home 2>/dev/null; echo scanned`,
              },
            },
          ],
        },
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${missing}/x` } }] },
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${offList}/y` } }] },
        { finish: 'done' },
      ],
      // The template asks for network and names no hosts: the policy's list applies.
      { network: 'egress', egressHosts: [] },
      { API_TOKEN: SECRET },
    );
    const [api, shell, scan, refused, off] = finished as [Finished, Finished, Finished, Finished, Finished];
    expect(api).toMatchObject({ ok: true, output: expect.stringContaining('served /api') });
    expect(shell).toMatchObject({ ok: true, output: expect.stringContaining('served /from-shell') });
    const upstream = seen.filter((r) => r.port === withSecret);
    expect(upstream.map((r) => r.headers.authorization)).toEqual([SECRET, SECRET]);
    // Inside the sandbox: not in the environment, not in any file it can read (the command names
    // the secret in two halves, so the call itself does not carry it into the events).
    expect(scan.output).toContain('scanned');
    expect(scan.output).not.toContain(SECRET);
    // The secret-less host and the off-list host were never reached.
    expect(seen.some((r) => r.port === missing || r.port === offList)).toBe(false);
    expect(refused).toMatchObject({ ok: false, output: expect.stringMatching(/^HTTP 403/) });
    expect(off).toMatchObject({ ok: false, output: expect.stringMatching(/^HTTP 403/) });
    expect(decided).toEqual([
      expect.objectContaining({ host: '127.0.0.1', port: withSecret, allowed: true, injectedHeaders: ['Authorization'] }),
      expect.objectContaining({ host: '127.0.0.1', port: withSecret, allowed: true, injectedHeaders: ['Authorization'] }),
      expect.objectContaining({
        port: missing,
        allowed: false,
        reason: `refused: the team secret "NOT_CREATED" that the policy's egress credential for 127.0.0.1:${missing} (X-Api-Key) needs does not exist (Settings → Secrets)`,
      }),
      expect.objectContaining({ port: offList, allowed: false, reason: `127.0.0.1:${offList} is not on the egress allowlist` }),
    ]);
    // Never in an event (the tool results included).
    expect(JSON.stringify(events.map((e) => e.payload))).not.toContain(SECRET);
  }, 90_000);

  it('the template narrows the policy list and cannot widen it', async () => {
    const [allowed, other] = ports as [number, number, number];
    const { finished, decided } = await runWith(
      { egress: { allow: [`127.0.0.1:${allowed}`, `127.0.0.1:${other}`] } },
      [
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${allowed}/ok` } }] },
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${other}/narrowed` } }] },
        { finish: 'done' },
      ],
      // 10.0.0.1 is not in the policy: listing it in the template allows nothing.
      { network: 'egress', egressHosts: [`127.0.0.1:${allowed}`, '10.0.0.1:80'] },
    );
    expect(finished[0]).toMatchObject({ ok: true, output: expect.stringContaining('served /ok') });
    expect(finished[1]).toMatchObject({ ok: false, output: expect.stringMatching(/^HTTP 403/) });
    expect(decided.map((d) => [d.port, d.allowed])).toEqual([
      [allowed, true],
      [other, false],
    ]);
  }, 90_000);

  it('a policy activated mid-run applies to the next call: its proxy is replaced between calls', async () => {
    const [host] = ports as [number, number, number];
    const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', egress: { allow: [`127.0.0.1:${host}`] } } });
    const agent = await createTestAgent(s.t.db, teamId, {
      script: [
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${host}/before` } }] },
        { calls: [{ tool: 'slow', args: { ms: 1500 } }] },
        { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${host}/after` } }] },
        { finish: 'done' },
      ],
    });
    const ids = await createTestRun(s.t.db, agent, {
      config: { tools: [...(catalogue() ?? []), ...testToolSpecs], toolLoading: 'eager', sandbox: { network: 'egress', egressHosts: [] } },
    });
    await s.client.enqueue({ ...ids, reason: 'start' });
    await waitFor(
      () =>
        s.t.db.event.findFirst({ where: { runId: ids.runId, type: 'tool.started', payload: { path: ['name'], equals: 'slow' } } }).then((e) => e ?? undefined),
      20_000,
      'the slow call',
    );
    const policy = await s.t.db.policy.findFirstOrThrow({ where: { teamId } });
    await s.t.db.policyVersion.create({ data: { policyId: policy.id, version: 2, document: { version: 1, default: 'allow', egress: { allow: [] } } } });
    await s.t.db.policy.update({ where: { id: policy.id }, data: { activeVersion: 2 } });
    await waitForRun(s.t.db, ids.runId, undefined, 30_000);
    const finished = (await s.t.db.event.findMany({ where: { runId: ids.runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } })).map(
      (e) => e.payload as Finished,
    );
    expect(finished[0]).toMatchObject({ ok: true, output: expect.stringContaining('served /before') });
    // The new policy allows no host: the proxy is gone, the request never leaves the sandbox.
    expect(finished[2]).toMatchObject({ ok: false, output: 'this run has no network access (no egress proxy)' });
    expect(seen.some((r) => r.url === '/before')).toBe(true);
    expect(seen.some((r) => r.url === '/after')).toBe(false);
  }, 90_000);

  it('decides every request from the sandbox by the http_request rules: curl cannot skip an approval or a denied path', async () => {
    const [upstream] = ports as [number, number, number];
    const target = `127.0.0.1:${upstream}`;
    const teamId = await createTestTeam(s.t.db, {
      policy: {
        version: 1,
        default: 'deny',
        rules: [
          { id: 'no-secrets', match: { tool: 'http_request', hosts: [target], paths: ['/secret/**'] }, outcome: 'deny', reason: 'secrets stay inside' },
          // A tool glob: the rule is for http_request, and so for every request through the proxy.
          { id: 'upstream-writes', match: { tool: 'http_*', hosts: [target], methods: ['POST'] }, outcome: 'require_approval' },
          { id: 'reads', match: { tool: 'http_request', egress: true }, outcome: 'allow' },
          { id: 'curl', match: { tool: 'shell', commands: ['curl'] }, outcome: 'allow' },
        ],
        egress: { allow: [target] },
      },
    });
    const agent = await createTestAgent(s.t.db, teamId, {
      script: [
        { calls: [{ tool: 'shell', args: { command: `curl -s -X POST -d title=x http://${target}/issues` } }] },
        { calls: [{ tool: 'shell', args: { command: `curl -s http://${target}/public/readme` } }] },
        { calls: [{ tool: 'shell', args: { command: `curl -s http://${target}/public/../secret/key` } }] },
        // HTTPS goes through a CONNECT tunnel: only host and port are known, and some paths of this host are denied.
        { calls: [{ tool: 'shell', args: { command: `curl -s -o /dev/null -w 'code=%{http_code}' https://${target}/public/readme` } }] },
        // The way to ask: http_request waits for an approver, and once approved is not refused again at the proxy.
        { calls: [{ tool: 'http_request', args: { url: `http://${target}/issues`, method: 'POST', body: 'title=approved' } }] },
        { finish: 'done' },
      ],
    });
    const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager', sandbox: { network: 'egress', egressHosts: [] } } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    await waitForRun(s.t.db, ids.runId, 'waiting', 45_000);
    const approval = await s.t.db.approval.findFirstOrThrow({ where: { runId: ids.runId, status: 'pending' } });
    expect(approval).toMatchObject({ tool: 'http_request', policyRuleId: 'upstream-writes' });
    const approver = await s.t.db.user.create({ data: { email: `approver-${randomBytes(4).toString('hex')}@example.test` } });
    await s.t.db.membership.create({ data: { teamId, userId: approver.id, role: 'approver' } });
    await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'approved', decidedById: approver.id, decidedAt: new Date() } });
    await s.client.enqueue({ ...ids, reason: 'resume' });
    await waitForRun(s.t.db, ids.runId, undefined, 45_000);
    const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished);
    const decided = events.filter((e) => e.type === 'egress.decided').map((e) => e.payload as Decided & { kind: string; method: string });
    const [post, read, secret, tunnel, asked] = finished as [Finished, Finished, Finished, Finished, Finished];

    const needsApprover =
      'policy rule "upstream-writes" requires approval; this request needs an approver (approver), and a request through the egress proxy cannot wait for an approver: make it with the http_request tool, which asks for one';
    expect(post.output).toContain(`egress denied: ${needsApprover}`);
    expect(read.output).toContain('served /public/readme');
    expect(secret.output).toContain('egress denied: denied by policy rule "no-secrets": secrets stay inside');
    // curl sees the proxy refuse the tunnel (403) and gives up: no HTTP status.
    expect(tunnel).toMatchObject({ ok: false, output: expect.stringContaining('code=000') });
    expect(asked).toMatchObject({ ok: true, output: expect.stringContaining('served /issues') });
    // Only the GET and the approved POST reached the upstream.
    const reached = seen.filter((r) => r.port === upstream).map((r) => r.url);
    expect(reached.filter((url) => url === '/issues' || url.startsWith('/public') || url.startsWith('/secret'))).toEqual(['/public/readme', '/issues']);
    expect(decided).toEqual([
      expect.objectContaining({ kind: 'http', method: 'POST', port: upstream, allowed: false, reason: needsApprover, callId: post.callId }),
      expect.objectContaining({ kind: 'http', method: 'GET', port: upstream, allowed: true, reason: 'allowed by policy rule "reads"', callId: read.callId }),
      expect.objectContaining({
        kind: 'http',
        method: 'GET',
        allowed: false,
        reason: 'denied by policy rule "no-secrets": secrets stay inside',
        callId: secret.callId,
      }),
      expect.objectContaining({
        kind: 'connect',
        allowed: false,
        // The first rule that might refuse a request inside the tunnel: its path cannot be seen.
        reason: `a CONNECT tunnel shows only host and port, and policy rule "no-secrets" denies some requests to ${target} (secrets stay inside); its paths cannot be checked inside a tunnel, so the tunnel is refused; the http_request tool is decided on the whole request`,
        callId: tunnel.callId,
      }),
      // The approved call went through the worker's own socket: decided once, by its approval.
      expect.objectContaining({ kind: 'http', method: 'POST', allowed: true, reason: 'allowed', callId: asked.callId }),
    ]);
  }, 120_000);

  it('a template without network gets none, whatever the policy allows', async () => {
    const { finished } = await runWith(
      { egress: { allow: [`127.0.0.1:${ports[0]}`] } },
      [{ calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${ports[0]}/` } }] }, { finish: 'done' }],
      undefined,
    );
    expect(finished).toEqual([expect.objectContaining({ ok: false, output: 'this run has no network access (no egress proxy)' })]);
  }, 90_000);

  it('refuses tools when the worker driver is below the policy minimum, naming the rule', async () => {
    const { finished } = await runWith(
      { sandbox: { minimumDriver: 'podman' } },
      [{ calls: [{ tool: 'shell', args: { command: 'echo hi' } }] }, { finish: 'done' }],
      undefined,
    );
    expect(finished).toEqual([
      expect.objectContaining({
        ok: false,
        output: "not run: the team policy's rule sandbox.minimumDriver requires the podman sandbox or stronger, but this worker runs bwrap",
      }),
    ]);
  }, 90_000);
});
