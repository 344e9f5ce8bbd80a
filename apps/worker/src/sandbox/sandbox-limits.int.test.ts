import { chmodSync, mkdtempSync } from 'node:fs';
import { chown, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { lazyEgressSource } from './test-egress-source';

/**
 * Sandbox limits against the real API, the real worker and real bwrap: an agent that asks for
 * 64 GiB and 64 CPUs runs with what this host can give (read from the cgroup the sandbox was put
 * in, while its command runs), a policy maximum saved between two calls of a run binds the second
 * call, and saving a template above the policy's maximum is refused with a 400 naming the field
 * and the cap. Only admins may change those maximums.
 */

const GiB = 1024 ** 3;
const root = mkdtempSync(join(tmpdir(), 'looplane-sandbox-limits-'));
chmodSync(root, 0o711);
// As the worker process builds it: opened secrets kept for its default 2 s.
const egress = lazyEgressSource(() => s.t.url, undefined, 2000);
const s = setUpRuntimeSuite('sandbox-limits', { leaseTtlMs: 10_000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });

afterAll(async () => {
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** Runs started through the API load tools on demand. */
const LOAD_SHELL: ScriptTurn = { calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] };
/** A shell call that marks that it started, then holds its sandbox until the test lets it go. */
const holding = (n: number): ScriptTurn => ({
  calls: [{ tool: 'shell', args: { command: `touch ready-${n} && while [ ! -e go-${n} ]; do sleep 0.05; done` } }],
});

/** The directory of this process's cgroup for a controller, and whether the hierarchy is v1. */
async function ownCgroup(controller: 'memory' | 'cpu'): Promise<{ dir: string; v1: boolean }> {
  const mounts = (await readFile('/proc/self/mountinfo', 'utf8')).split('\n').map((line) => {
    const [left = '', right = ''] = line.split(' - ');
    const [fsType = '', , options = ''] = right.split(' ');
    return { mountPoint: left.split(' ')[4] ?? '', fsType, options: options.split(',') };
  });
  const paths = (await readFile('/proc/self/cgroup', 'utf8')).split('\n');
  const v1 = mounts.find((m) => m.fsType === 'cgroup' && m.options.includes(controller));
  const v1Path = paths.map((l) => /^\d+:([^:]*):(.*)$/.exec(l)).find((m) => m?.[1]?.split(',').includes(controller))?.[2];
  if (v1 && v1Path !== undefined) return { dir: join(v1.mountPoint, v1Path), v1: true };
  const v2 = mounts.find((m) => m.fsType === 'cgroup2');
  const v2Path = paths.map((l) => /^0::(.*)$/.exec(l)).find(Boolean)?.[1];
  if (!v2 || v2Path === undefined) throw new Error(`no ${controller} cgroup for this process`);
  return { dir: join(v2.mountPoint, v2Path), v1: false };
}

/** Memory (bytes) and CPUs (quota / period) written in a cgroup directory of each controller. */
async function limitsIn(memoryDir: string, cpuDir: string, v1: boolean): Promise<{ memoryBytes: number; cpus: number }> {
  const read = (dir: string, file: string) => readFile(join(dir, file), 'utf8').then((t) => t.trim());
  if (v1) {
    const [memory, quota, period] = await Promise.all([
      read(memoryDir, 'memory.limit_in_bytes'),
      read(cpuDir, 'cpu.cfs_quota_us'),
      read(cpuDir, 'cpu.cfs_period_us'),
    ]);
    return { memoryBytes: Number(memory), cpus: Number(quota) / Number(period) };
  }
  const [memory, cpuMax] = await Promise.all([read(memoryDir, 'memory.max'), read(cpuDir, 'cpu.max')]);
  const [quota, period] = cpuMax.split(' ');
  return { memoryBytes: Number(memory), cpus: Number(quota) / Number(period) };
}

/** This worker's sandbox parent in a controller's hierarchy, and the execution cgroup that holds processes now. */
async function sandboxCgroups(controller: 'memory' | 'cpu'): Promise<{ parent: string; exec: string | null; v1: boolean }> {
  const { dir, v1 } = await ownCgroup(controller);
  const base = join(dir, 'looplane-sandbox');
  const mine = (await readdir(base)).filter((name) => name.startsWith(`w-${process.pid}-`));
  expect(mine).toHaveLength(1);
  const parent = join(base, mine[0]!);
  for (const name of (await readdir(parent)).filter((n) => n.startsWith('exec-'))) {
    const procs = await readFile(join(parent, name, 'cgroup.procs'), 'utf8').catch(() => '');
    if (procs.trim()) return { parent, exec: join(parent, name), v1 };
  }
  return { parent, exec: null, v1 };
}

/** Waits for call `n` of the session to be running in its sandbox; returns the limits of its cgroup and of the worker's parent. */
async function heldCall(sessionId: string, n: number) {
  const work = join(root, 'workspaces', sessionId, 'work');
  await waitFor(() => stat(join(work, `ready-${n}`)).then(Boolean, () => false), 30_000, `call ${n} to start in its sandbox`);
  const [memory, cpu] = await Promise.all([sandboxCgroups('memory'), sandboxCgroups('cpu')]);
  if (!memory.exec || !cpu.exec) throw new Error(`call ${n} holds no cgroup`);
  return { exec: await limitsIn(memory.exec, cpu.exec, memory.v1), parent: await limitsIn(memory.parent, cpu.parent, memory.v1) };
}

/** Lets call `n` finish (the file belongs to the session's uid, like everything in its workspace). */
async function release(sessionId: string, n: number): Promise<void> {
  const dir = join(root, 'workspaces', sessionId);
  const { uid, gid } = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as { uid: number; gid: number };
  const file = join(dir, 'work', `go-${n}`);
  await writeFile(file, '');
  await chown(file, uid, gid ?? uid);
}

let fx: TeamFixture;
beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
});
const as = (role: 'admin' | 'operator') => callerAs(api(), { userId: fx.members[role].id });
const shellTool = () => s.worker.sandbox!.tools.filter((t) => t.spec.name === 'shell').map((t) => ({ ...t.spec }));
const savePolicy = async (document: Record<string, unknown>) => (await as('admin')).policies.save({ teamId: fx.teamId, document: { version: 1, ...document } });

describe('sandbox limits: policy maximums and the host cap (real API, worker and bwrap)', () => {
  it('runs a 64 GiB / 64 CPU agent at the host cap, binds a maximum saved between two calls, and refuses templates above it', async () => {
    const enforced = s.worker.sandbox!.probe.limitsEnforced;
    // What this test observes is the kernel's: it needs the cgroup controllers (the worker runs as root here, as in CI).
    expect([enforced.memoryBytes.by, enforced.cpus.by]).toEqual([expect.stringMatching(/^cgroup/), expect.stringMatching(/^cgroup/)]);
    const host = s.worker.sandbox!.hostCaps;
    expect(host.memoryBytes).toBeLessThan(totalmem());
    expect(host.cpus).toBeLessThanOrEqual(availableParallelism());

    // No maximum in the policy: the template may ask for 64 GiB and 64 CPUs.
    await savePolicy({ name: 'allow, no sandbox maximums', default: 'allow' });
    const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script: [LOAD_SHELL, holding(1), holding(2), { finish: 'done' }] });
    const operator = await as('operator');
    const agent = await operator.agents.create({
      teamId: fx.teamId,
      name: 'big-sandbox',
      endpointId,
      tools: shellTool(),
      sandbox: { memoryMb: 65_536, cpus: 64 },
    });
    const { runId } = await operator.runs.create({ teamId: fx.teamId, agentId: agent.id, goal: 'use the sandbox' });
    const sessionId = (await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })).mainSessionId!;

    // The first call got the host's caps, not what the template asked for; so did the worker's parent.
    const first = await heldCall(sessionId, 1);
    expect(first.exec).toEqual({ memoryBytes: host.memoryBytes, cpus: host.cpus });
    expect(first.parent).toEqual({ memoryBytes: host.memoryBytes, cpus: host.cpus });
    expect(first.exec.memoryBytes).toBeLessThan(64 * GiB);

    // Maximums saved while the run holds its first call bind its second call.
    await savePolicy({ name: 'allow, 4 GiB and 1 CPU', default: 'allow', sandbox: { limits: { memoryBytes: 4 * GiB, cpus: 1 } } });
    await release(sessionId, 1);
    const second = await heldCall(sessionId, 2);
    expect(second.exec).toEqual({ memoryBytes: 4 * GiB, cpus: 1 });
    await release(sessionId, 2);
    expect((await waitForRun(s.t.db, runId, undefined, 30_000)).status).toBe('succeeded');

    // Saving a template above a maximum is refused, naming the field and the cap.
    await expect(
      operator.agents.create({ teamId: fx.teamId, name: 'too-big', endpointId, tools: shellTool(), sandbox: { memoryMb: 65_536, cpus: 64 } }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining("sandbox.memoryMb is 65536 MiB, above the team policy's maximum sandbox.limits.memoryBytes of 4096 MiB"),
    });
    await expect(operator.agents.update({ teamId: fx.teamId, agentId: agent.id, sandbox: { memoryMb: 1024, cpus: 64 } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining("sandbox.cpus is 64 CPUs, above the team policy's maximum sandbox.limits.cpus of 1 CPUs"),
    });
    // A graph whose node's template asks for more (saved before the maximum) is refused too.
    await expect(
      operator.graphs.create({ teamId: fx.teamId, name: 'big-graph', definition: { root: 'main', nodes: [{ key: 'main', agentId: agent.id }] } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('node main (agent big-sandbox): sandbox.memoryMb is 65536 MiB') });
    // Within the maximums, it saves.
    const fitted = await operator.agents.update({ teamId: fx.teamId, agentId: agent.id, sandbox: { memoryMb: 4096, cpus: 1 } });
    expect(fitted.sandbox).toEqual({ memoryMb: 4096, cpus: 1 });

    // Only an admin changes the maximums.
    await expect(
      operator.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'allow', sandbox: { limits: { memoryBytes: 64 * GiB } } } }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
