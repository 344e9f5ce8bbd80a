import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { RunConfigInput, ScriptTurn } from '@looplane/engine';
import { GvisorDriver, PodmanDriver } from '@looplane/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { registerBuiltinTools } from '../tools/builtin-tools';
import { ToolRegistry } from '../tools/tool-registry';
import { lazyEgressSource } from './test-egress-source';
import { WorkerSandbox } from './worker-sandbox';

// Real bwrap and real gVisor on one worker, a real runtime and the team's real policy: each call
// runs on the worker's default driver unless its template or the policy asks for a stronger level.
const root = mkdtempSync(join(tmpdir(), 'looplane-sandbox-levels-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('sandbox-levels', {
  leaseTtlMs: 3000,
  sandbox: { driver: 'bwrap', offered: ['bwrap', 'gvisor'], workspaceRoot: join(root, 'workspaces'), egress },
});
const logger = createLogger({ level: 'silent' });

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

type Finished = { callId: string; ok: boolean; output: string };

const catalogue = () => sandboxCatalogue(s.worker.sandbox!);

async function runWithEvents(policy: Record<string, unknown>, script: ScriptTurn[], sandbox?: RunConfigInput['sandbox']) {
  const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', ...policy } });
  const agent = await createTestAgent(s.t.db, teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager', ...(sandbox ? { sandbox } : {}) } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  await waitForRun(s.t.db, ids.runId, undefined, 45_000);
  const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
  return {
    finished: events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as Finished),
    decided: events.filter((e) => e.type === 'policy.decided').map((e) => e.payload),
  };
}

async function runWith(policy: Record<string, unknown>, script: ScriptTurn[], sandbox?: RunConfigInput['sandbox']): Promise<Finished[]> {
  return (await runWithEvents(policy, script, sandbox)).finished;
}

const uname = () => ({ calls: [{ tool: 'shell', args: { command: 'uname -r; echo made > level.txt' } }] });

describe('isolation levels on one worker (bwrap default, gvisor offered)', () => {
  it('the worker offers both drivers and says which work', async () => {
    expect(s.worker.sandbox!.offered).toEqual(['bwrap', 'gvisor']);
    expect(await s.worker.sandbox!.workingDrivers()).toEqual(['bwrap', 'gvisor']);
  });

  it("a template asking for gvisor runs its calls under gVisor's kernel; one asking for nothing stays on bwrap", async () => {
    const strong = await runWith({}, [uname(), { finish: 'done' }], { driver: 'gvisor', network: 'none', egressHosts: [], limits: {} });
    expect(strong).toEqual([expect.objectContaining({ ok: true })]);
    expect(strong[0]!.output).not.toContain(release());
    const plain = await runWith({}, [uname(), { finish: 'done' }]);
    expect(plain[0]!.output).toContain(release());
  }, 90_000);

  it('a policy rule requiring gvisor for lines that run code: python3 runs under gVisor, ls stays on bwrap, and the decision names the level', async () => {
    const rule = { id: 'code-in-gvisor', match: { tool: 'shell', runsCode: true }, outcome: 'allow', minimumDriver: 'gvisor' };
    const { finished, decided } = await runWithEvents({ rules: [rule] }, [
      { calls: [{ tool: 'shell', args: { command: `python3 -c "import os; print(os.uname().release)"` } }] },
      { calls: [{ tool: 'shell', args: { command: 'uname -r' } }] },
      { finish: 'done' },
    ]);
    expect(finished.map((f) => f.ok)).toEqual([true, true]);
    expect(finished[0]!.output).not.toContain(release());
    expect(finished[0]!.output).toMatch(/^exit code: 0\n--- stdout ---\n\d+\.\d+\.\d+/);
    expect(finished[1]!.output).toContain(release());
    expect(decided).toEqual([
      { callId: expect.any(String), decision: 'allow', ruleId: 'code-in-gvisor', isolation: 'gvisor' },
      { callId: expect.any(String), decision: 'allow', ruleId: 'default' },
    ]);
  }, 90_000);

  it('a template asking for a level the worker does not offer: refuse-call tells the model, fail-run ends the run failed; nothing runs weaker', async () => {
    const asking = (whenIsolationUnavailable: 'refuse-call' | 'fail-run'): RunConfigInput['sandbox'] => ({
      driver: 'microvm',
      whenIsolationUnavailable,
      network: 'none',
      egressHosts: [],
      limits: {},
    });
    const refused = await runWith({}, [uname(), { finish: 'done' }], asking('refuse-call'));
    expect(refused).toEqual([
      expect.objectContaining({ ok: false, output: 'not run: the agent requires the microvm sandbox or stronger, but this worker runs bwrap and gvisor' }),
    ]);
    const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow' } });
    const agent = await createTestAgent(s.t.db, teamId, { script: [uname(), { finish: 'done' }] });
    const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager', sandbox: asking('fail-run') } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    const run = await waitForRun(s.t.db, ids.runId, undefined, 45_000);
    expect(run.status).toBe('failed');
    const events = await s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    expect(events.filter((e) => e.type === 'tool.finished')).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      payload: { status: 'failed', error: 'a call was not run: the agent requires the microvm sandbox or stronger, but this worker runs bwrap and gvisor' },
    });
    expect(existsSync(join(root, 'workspaces', ids.sessionId, 'level.txt'))).toBe(false);
  }, 90_000);

  it("the policy's sandbox.minimumDriver gvisor moves every call of the team to gVisor", async () => {
    const finished = await runWith({ sandbox: { minimumDriver: 'gvisor' } }, [uname(), { finish: 'done' }]);
    expect(finished).toEqual([expect.objectContaining({ ok: true })]);
    expect(finished[0]!.output).not.toContain(release());
  }, 90_000);
});

describe('a worker that does not offer the level a call needs', () => {
  it('refuses the call with the reason and runs nothing, not even under bwrap', async () => {
    const sandbox = await WorkerSandbox.start({ driver: 'bwrap', workspaceRoot: join(root, 'bwrap-only'), environment: 'production', logger });
    expect(sandbox.offered).toEqual(['bwrap']);
    const runner = registerBuiltinTools(new ToolRegistry(), sandbox).runnerFor({
      runId: 'run-1',
      teamId: 'team-1',
      agentId: null,
      sessionId: 'session-weak',
      sandbox: { driver: 'gvisor', network: 'none', egressHosts: [], limits: {} },
    });
    const result = await runner.run({ callId: 'c1', name: 'shell', args: { command: 'echo made > level.txt' } });
    expect(result).toEqual({ ok: false, output: 'not run: the agent requires the gvisor sandbox or stronger, but this worker runs bwrap' });
    expect(existsSync(join(root, 'bwrap-only', 'session-weak'))).toBe(false);
  });

  it('refuses, naming the reason, when the offered stronger driver does not work on this host', async () => {
    const sandbox = await WorkerSandbox.start({
      driver: 'bwrap',
      offered: ['bwrap', 'gvisor'],
      workspaceRoot: join(root, 'gvisor-broken'),
      environment: 'production',
      drivers: { gvisor: new GvisorDriver({ stateDir: join(root, 'gvisor-broken-state'), runscPath: '/nonexistent/runsc' }) },
      logger,
    });
    expect(await sandbox.workingDrivers()).toEqual(['bwrap']);
    const runner = registerBuiltinTools(new ToolRegistry(), sandbox).runnerFor({
      runId: 'run-1',
      teamId: 'team-1',
      agentId: null,
      sessionId: 'session-broken',
      sandbox: { driver: 'gvisor', network: 'none', egressHosts: [], limits: {} },
    });
    const result = await runner.run({ callId: 'c1', name: 'shell', args: { command: 'echo made > level.txt' } });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(
      /^not run: the agent requires the gvisor sandbox or stronger, and this worker's gvisor does not work here \(gvisor: runsc not found/,
    );
    expect(existsSync(join(root, 'gvisor-broken', 'session-broken'))).toBe(false);
  });
});

describe("a template's podman runtime", () => {
  it('runs its calls with that OCI runtime on a podman worker, or refuses them naming why the runtime cannot run here', async () => {
    const reporting = new PodmanDriver({ stateDir: join(root, 'podman-state'), user: 'looplane-podman', unenforcedLimits: 'report' });
    const probe = await reporting.probe();
    if (!probe.available) return; // podman itself cannot run here: podman.driver.int.test.ts says why
    const sandbox = await WorkerSandbox.start({
      driver: 'podman',
      workspaceRoot: join(root, 'podman-ws'),
      environment: 'production',
      drivers: { podman: reporting },
      logger,
    });
    const runner = registerBuiltinTools(new ToolRegistry(), sandbox).runnerFor({
      runId: 'run-1',
      teamId: 'team-1',
      agentId: null,
      sessionId: 'session-crun',
      sandbox: { driver: 'podman', podmanRuntime: 'crun', network: 'none', egressHosts: [], limits: {} },
    });
    const result = await runner.run({ callId: 'c1', name: 'shell', args: { command: 'echo made > level.txt' } });
    // The runtime's own probe decides: crun refuses hybrid hosts whose cgroup v2 holds controllers, and the worker's podman refuses ignored limits (cgroup v1 rootless).
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/^not run: the agent's podman runtime crun does not work on this worker: /);
    expect(existsSync(join(root, 'podman-ws', 'session-crun', 'level.txt'))).toBe(false);
  }, 60_000);
});
