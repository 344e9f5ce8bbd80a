import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { seedDatabase } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { requestCancel, setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { lazyEgressSource } from './test-egress-source';

const run = promisify(execFile);

// The worker runs as root here (as in CI), so the bwrap driver gives each session its own uid.
// 0711: sandbox uids must traverse it to reach their own workspace.
const root = mkdtempSync(join(tmpdir(), 'looplane-worker-sandbox-'));
chmodSync(root, 0o711);
// The team's active policy gives the egress allowlist, as in the worker process.
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('sandbox-tools', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** The catalogue entries of the sandbox tools, as a template lists them. */
const catalogue = () => sandboxCatalogue(s.worker.sandbox!);

/**
 * Runs here are judged by the team's policy (the default one asks an approver for anything off
 * its safe list); `allowAll` gives the test's team a policy that lets every call through.
 */
async function startRun(script: ScriptTurn[], config: Partial<RunConfigInput> = {}, options: { allowAll?: boolean; egressAllow?: string[] } = {}) {
  const teamId = await createTestTeam(s.t.db);
  if (options.allowAll) {
    const document = { version: 1, name: 'allow-all', default: 'allow', ...(options.egressAllow ? { egress: { allow: options.egressAllow } } : {}) };
    await s.t.db.policy.create({ data: { teamId, name: 'allow-all', activeVersion: 1, versions: { create: { version: 1, document } } } });
  }
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager', ...config } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  return ids;
}

const eventsOf = (runId: string) => s.t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });
type Finished = { callId: string; ok: boolean; output: string; commit?: string };

/** The workspace's uid and git dir, from the layout WorkspaceManager keeps. */
async function workspaceOf(sessionId: string) {
  const dir = join(root, 'workspaces', sessionId);
  const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as { uid: number };
  return { uid: meta.uid, gitDir: join(dir, 'git') };
}

/** Host pids whose real uid is `uid`. */
async function processesOf(uid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid) pids.push(Number(name));
  }
  return pids;
}

describe('sandboxed tools through the worker runtime (real bwrap)', () => {
  it('registers the seven built-in tools, with their idempotency', () => {
    expect(s.worker.sandbox?.unavailable).toBeNull();
    const specs = Object.fromEntries(s.worker.sandbox!.tools.map((t) => [t.spec.name, t.spec.idempotent]));
    expect(specs).toEqual({ shell: false, read_file: true, write_file: false, edit_file: false, list_files: true, search_files: true, http_request: false });
  });

  it('write_file, shell cat and read_file round-trip a file in the session workspace; the write commit is recorded', async () => {
    const content = 'hello from the sandbox\nline two\n';
    const ids = await startRun([
      { calls: [{ tool: 'write_file', args: { path: 'notes/hello.txt', content } }] },
      { calls: [{ tool: 'shell', args: { command: 'cat notes/hello.txt && pwd' } }] },
      { calls: [{ tool: 'read_file', args: { path: 'notes/hello.txt' } }] },
      { finish: 'done' },
    ]);
    const done = await waitForRun(s.t.db, ids.runId, undefined, 30_000);
    expect(done.status).toBe('succeeded');
    const events = await eventsOf(ids.runId);
    const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished);
    expect(finished).toHaveLength(3);
    const [write, shell, read] = finished as [Finished, Finished, Finished];
    expect(write.ok).toBe(true);
    expect(write.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(shell.ok).toBe(true);
    expect(shell.output).toContain('hello from the sandbox');
    expect(shell.output).toContain('/workspace'); // the work tree as the sandbox sees it
    expect(read.ok).toBe(true);
    expect(read.output).toContain('hello from the sandbox');
    expect(read.output).toContain('line two');
    expect(read.commit).toBeUndefined(); // read_file does not mutate
    // The commit exists in the workspace's git and holds the file.
    const { gitDir } = await workspaceOf(ids.sessionId);
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    await run('git', ['--git-dir', gitDir, 'cat-file', '-e', `${write.commit}^{commit}`], { env });
    const { stdout } = await run('git', ['--git-dir', gitDir, 'show', `${write.commit}:notes/hello.txt`], { env });
    expect(stdout).toBe(content);
    expect(await logProblems(s.t.db, ids.runId)).toEqual([]);
  }, 60_000);

  it('a run cancelled during a shell `sleep 30` ends within a second and leaves no process of the session uid', async () => {
    const ids = await startRun([{ calls: [{ tool: 'shell', args: { command: 'echo started; sleep 30; echo never' } }] }, { finish: 'never' }]);
    await waitFor(
      () => s.t.db.event.findFirst({ where: { runId: ids.runId, type: 'tool.started' } }).then((e) => e ?? undefined),
      20_000,
      'the shell call to start',
    );
    const { uid } = await waitFor(() => workspaceOf(ids.sessionId).catch(() => undefined), 10_000, 'the workspace');
    await waitFor(async () => (await processesOf(uid)).length > 0, 10_000, 'the sandboxed sleep to run');
    const start = performance.now();
    await requestCancel(s.t.db, s.client, ids, 'user-sandbox');
    await waitForRun(s.t.db, ids.runId, 'cancelled', 5000);
    const ms = performance.now() - start;
    expect(ms).toBeLessThan(1500);
    expect(await processesOf(uid)).toEqual([]);
    const events = await eventsOf(ids.runId);
    expect(events.at(-2)).toMatchObject({ type: 'tool.interrupted' });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'cancelled' } });
    console.info(`cancel during a sandboxed sleep: cancelled ${ms.toFixed(0)} ms after the request, nothing left of uid ${uid}`);
  }, 60_000);

  it('records egress decisions of a run whose template and team policy allow a host, and stops its proxy when the job ends', async () => {
    const server: Server = createServer((_req, res) => res.end('egress ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const ids = await startRun(
        [
          { calls: [{ tool: 'http_request', args: { url: `http://127.0.0.1:${port}/hello` } }] },
          { calls: [{ tool: 'shell', args: { command: 'curl -s -o /dev/null -w "%{http_code}" http://example.invalid:8080/' } }] },
          { finish: 'done' },
        ],
        { sandbox: { network: 'egress', egressHosts: [`127.0.0.1:${port}`] } },
        { allowAll: true, egressAllow: [`127.0.0.1:${port}`] },
      );
      const done = await waitForRun(s.t.db, ids.runId, undefined, 30_000);
      expect(done.status).toBe('succeeded');
      const events = await eventsOf(ids.runId);
      const decided = events
        .filter((e) => e.type === 'egress.decided')
        .map((e) => e.payload as { host: string; port: number; allowed: boolean; callId: string });
      expect(decided).toEqual([
        expect.objectContaining({ host: '127.0.0.1', port, allowed: true }),
        expect.objectContaining({ host: 'example.invalid', port: 8080, allowed: false }),
      ]);
      const finished = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished);
      expect(finished[0]).toMatchObject({ ok: true, output: expect.stringContaining('egress ok') });
      expect(finished[1]?.output).toContain('403');
      // Each decision is recorded right before its call's result.
      for (const d of decided) expect(finished.some((f) => f.callId === d.callId)).toBe(true);
      expect(s.worker.sandbox!.hasEgressProxy(ids.sessionId)).toBe(false);
    } finally {
      server.close();
    }
  }, 60_000);

  it('without egress in the run config, http_request has no network', async () => {
    const ids = await startRun([{ calls: [{ tool: 'http_request', args: { url: 'http://127.0.0.1:9/' } }] }, { finish: 'done' }], {}, { allowAll: true });
    await waitForRun(s.t.db, ids.runId, undefined, 30_000);
    const finished = (await eventsOf(ids.runId)).filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished);
    expect(finished).toEqual([expect.objectContaining({ ok: false, output: 'this run has no network access (no egress proxy)' })]);
  }, 60_000);

  it('the seeded demo-steps agent runs its twelve steps with real sandboxed tools (what `npm start` shows)', async () => {
    await seedDatabase(s.t.db, { adminPassword: 'demo password 1' });
    const template = await s.t.db.agentTemplate.findFirstOrThrow({ where: { name: 'demo-steps' }, include: { endpoint: true } });
    const e = template.endpoint;
    const agent = {
      teamId: template.teamId,
      agentId: template.id,
      endpointId: e.id,
      busyPolicy: template.busyPolicy,
      limits: {
        model: e.model,
        contextWindow: e.contextWindow,
        maxOutputTokens: e.maxOutputTokens,
        inputMicrosPerMTok: Number(e.inputMicrosPerMTok),
        outputMicrosPerMTok: Number(e.outputMicrosPerMTok),
      },
    };
    const ids = await createTestRun(s.t.db, agent, { config: { tools: template.tools as RunConfigInput['tools'] } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    const done = await waitForRun(s.t.db, ids.runId, undefined, 45_000).catch(async (error: unknown) => {
      console.log(
        (await s.t.db.run.findUnique({ where: { id: ids.runId } }))?.status,
        (await s.t.db.session.findUnique({ where: { id: ids.sessionId } }))?.status,
      );
      console.log((await eventsOf(ids.runId)).map((ev) => `${ev.type} ${JSON.stringify(ev.payload).slice(0, 200)}`).join('\n'));
      throw error;
    });
    expect(done.status).toBe('succeeded');
    const events = await eventsOf(ids.runId);
    expect(events.filter((ev) => ev.type === 'tool.rejected')).toEqual([]);
    const finished = events.filter((ev) => ev.type === 'tool.finished').map((ev) => ev.payload as Finished);
    expect(finished).toHaveLength(11);
    for (const f of finished) expect(f, f.output).toMatchObject({ ok: true });
    expect(finished.filter((f) => f.commit).length).toBeGreaterThanOrEqual(4);
    expect(finished.at(-1)?.output).toContain('part 1: done');
    expect(finished.at(-1)?.output).toContain('Parts 1 and 2 done');
  }, 60_000);
});
