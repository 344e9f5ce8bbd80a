import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@looplane/shared';
import { BwrapDriver } from './bwrap.driver';
import { processesOf, sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';

let f: SandboxFixture;
beforeAll(async () => {
  f = await sandboxFixture();
});
afterAll(() => f.close());

describe('bwrap driver', () => {
  it('probes as available and says which limits hold here', async () => {
    const probe = await f.driver.probe();
    expect(probe).toMatchObject({ driver: 'bwrap', available: true });
    expect(probe.limitsEnforced.wallTimeMs).toEqual({ enforced: true, by: 'supervisor' });
    expect(probe.limitsEnforced.tmpBytes).toEqual({ enforced: true, by: 'tmpfs' });
    // Whatever the host: each limit is either held by something named, or marked as not held.
    for (const entry of Object.values(probe.limitsEnforced)) expect(entry.enforced === (entry.by !== null)).toBe(true);
  });

  it('runs argv with stdin, env and cwd, and returns exit code, stdout and stderr separately', async () => {
    await f.sh('mkdir -p sub');
    const r = await f.driver.exec({
      argv: ['/bin/sh', '-c', 'read line; echo "$line/$GREETING/$(pwd)"; echo oops >&2; exit 7'],
      workspace: f.workspace,
      cwd: 'sub',
      env: { GREETING: 'hello' },
      stdin: 'from-stdin\n',
    });
    expect(r).toMatchObject({ exitCode: 7, signal: null, stdout: 'from-stdin/hello//workspace/sub\n', stderr: 'oops\n', killedBy: null, truncated: false });
  });

  it('reports a missing program as a command failure, not an infrastructure error', async () => {
    const r = await f.driver.exec({ argv: ['no-such-program-xyz'], workspace: f.workspace });
    expect(r.exitCode).toBe(127);
  });

  it('throws an infrastructure error when the sandbox cannot be set up', async () => {
    const missing = { ...f.workspace, path: join(f.dir, 'does-not-exist') };
    await expect(f.driver.exec({ argv: ['true'], workspace: missing })).rejects.toThrow(/bwrap could not set up the sandbox/);
  });

  it('refuses to launch a sandbox as root and refuses bad environment names', async () => {
    await expect(f.driver.exec({ argv: ['true'], workspace: { ...f.workspace, uid: 0 } })).rejects.toBeInstanceOf(AppError);
    await expect(f.driver.exec({ argv: ['true'], workspace: f.workspace, env: { 'BAD NAME': 'x' } })).rejects.toThrow(/invalid environment variable name/);
  });

  it('a cancelled exec resolves as cancelled and leaves no process', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await f.sh('sleep 30', {}, { signal: controller.signal });
    expect(r).toMatchObject({ killedBy: 'cancel', exitCode: null, signal: 'SIGKILL' });
    expect(await processesOf(f.workspace.uid)).toEqual([]);
  });

  it('without cgroups it falls back to rlimits and reports exactly that', async () => {
    const plain = new BwrapDriver({ stateDir: join(f.dir, 'state-nocg'), cgroups: 'off' });
    const r = await plain.exec({
      argv: ['/bin/sh', '-c', 'ulimit -v; ulimit -f'],
      workspace: f.workspace,
      limits: { memoryBytes: 256 * 1024 * 1024, workspaceBytes: 8 * 1024 * 1024 },
    });
    expect(r.stdout).toBe(`${256 * 1024}\n${(8 * 1024 * 1024) / 512}\n`);
    expect(r.limits.memoryBytes).toMatchObject({ enforced: true, by: 'rlimit' });
    expect(r.limits.cpus).toMatchObject({ enforced: false, by: null });
    expect((await plain.probe()).reason).toMatch(/no cgroups/);
  });

  it('the worker environment never reaches bwrap itself (it is PID 1 of nothing, but its parent env is visible)', async () => {
    const r = await f.sh('cat /proc/1/environ | tr "\\0" "\\n"');
    expect(r.stdout).not.toMatch(/^(NODE|VITEST|npm_)/m);
    expect(r.stdout).toContain('HOME=/workspace');
  });
});
