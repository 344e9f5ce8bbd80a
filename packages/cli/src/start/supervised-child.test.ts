import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { spawnChild, type ManagedChild } from './children';
import { groupAlive } from './proc';
import { RestartBackoff } from './restart-backoff';
import { SupervisedChild, type SupervisedChildOptions } from './supervised-child';
import { SupervisorState } from './supervisor-state';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let dir: string;
let out: string;
const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (out += t) });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-supervised-'));
  out = '';
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A supervised `sh -c script`, every instance recorded. */
async function supervise(script: string, overrides: Partial<SupervisedChildOptions> = {}) {
  const spawned: ManagedChild[] = [];
  const fatal: string[] = [];
  const state = new SupervisorState(join(dir, 'supervisor.json'));
  const child = await SupervisedChild.start({
    name: 'worker',
    spawn: () => spawnChild({ name: 'worker', command: 'sh', args: ['-c', script], cwd: '/', env }),
    stop: (c) => c.stop('SIGTERM', 1000),
    printer,
    state,
    backoff: new RestartBackoff({ initialMs: 10, maxMs: 40 }),
    onSpawn: async (c) => void spawned.push(c),
    onFatal: (message) => fatal.push(message),
    ...overrides,
  });
  return { child, spawned, fatal, state };
}

describe('SupervisedChild', () => {
  it('before it is armed, an exit is fatal and nothing restarts', async () => {
    const { spawned, fatal, state } = await supervise('echo bad config; exit 2');
    await until(() => fatal.length === 1);
    expect(fatal[0]).toBe('worker exited with code 2 unexpectedly; its last output:\nbad config');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(spawned).toHaveLength(1);
    expect(state.counts().worker).toBe(0);
  });

  it('once armed, restarts a child that died, logging why, counting each restart in the state file', async () => {
    const { child, spawned, fatal } = await supervise('echo started; sleep 30');
    child.arm();
    for (const index of [0, 1]) {
      await until(() => spawned.length === index + 1 && spawned[index]!.tail.text() === 'started');
      process.kill(spawned[index]!.pid, 'SIGKILL');
    }
    await until(() => spawned.length === 3 && out.includes('2 restarts so far'));
    expect(child.current).toBe(spawned[2]);
    expect(out).toContain('warning: worker was killed by SIGKILL unexpectedly; restarting it in 0.01 s. Its last output:\nstarted\n');
    expect(out).toContain('warning: worker was killed by SIGKILL unexpectedly; restarting it in 0.02 s');
    expect(JSON.parse(await readFile(join(dir, 'supervisor.json'), 'utf8')).restarts).toEqual({ web: 0, worker: 2 });
    await child.stop();
    expect(groupAlive(spawned[2]!.pid)).toBe(false);
    expect(fatal).toEqual([]);
  });

  it('stop() during the backoff cancels the pending restart', async () => {
    const { child, spawned } = await supervise('exit 1', { backoff: new RestartBackoff({ initialMs: 60_000 }) });
    child.arm();
    await until(() => out.includes('restarting it in 60 s'));
    const startedAt = Date.now();
    await child.stop();
    expect(Date.now() - startedAt).toBeLessThan(2000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spawned).toHaveLength(1);
  });

  it('a restart that cannot spawn is fatal', async () => {
    let calls = 0;
    const { child, fatal } = await supervise('', {
      spawn: () =>
        calls++ === 0
          ? spawnChild({ name: 'worker', command: 'sh', args: ['-c', 'exit 1'], cwd: '/', env })
          : spawnChild({ name: 'worker', command: '/nonexistent/worker', args: [], cwd: '/', env }),
    });
    child.arm();
    await until(() => fatal.length === 1);
    expect(fatal[0]).toMatch(/^could not restart worker: could not start worker \(\/nonexistent\/worker\)/);
    await child.stop();
  });
});
