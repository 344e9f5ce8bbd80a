import { release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@looplane/shared';
import { GvisorDriver, hostPids } from './gvisor.driver';
import { processesOf, sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { driverAbsent } from '../testing/escape-drivers';

const absent = driverAbsent('gvisor');

describe.skipIf(absent)(absent ? `gvisor driver (skipped: ${absent})` : 'gvisor driver', () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await sandboxFixture({ kind: 'gvisor' });
  });
  afterAll(() => f.close());

  describe('exec', () => {
    it("probes as available, names runsc's version and platform, and says which limits hold here", async () => {
      const probe = await f.driver.probe();
      expect(probe).toMatchObject({ driver: 'gvisor', available: true });
      expect(probe.reason).toMatch(/^runsc \S+, platform systrap/);
      expect(probe.limitsEnforced.tmpBytes).toEqual({ enforced: true, by: 'tmpfs' });
      for (const entry of Object.values(probe.limitsEnforced)) expect(entry.enforced === (entry.by !== null)).toBe(true);
    });

    it("every system call is served by gVisor's kernel, not the host's", async () => {
      const r = await f.sh('uname -r; cat /proc/version');
      const [inside] = r.stdout.split('\n');
      expect(inside).not.toBe(release());
      expect(r.stdout).not.toContain(release());
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

    it('files it writes belong to the session uid on the host, and ls, stat and find work inside', async () => {
      const r = await f.sh('echo hi > made.txt && ls -l made.txt | cut -c1-10 && stat -c %s made.txt && find . -name made.txt');
      expect(r).toMatchObject({ exitCode: 0, stdout: '-rw-r--r--\n3\n./made.txt\n', stderr: '' });
      const { stat } = await import('node:fs/promises');
      expect((await stat(join(f.workspace.path, 'made.txt'))).uid).toBe(f.workspace.uid);
    });

    it('reports a missing program as a command failure, not an infrastructure error', async () => {
      const r = await f.driver.exec({ argv: ['no-such-program-xyz'], workspace: f.workspace });
      expect(r).toMatchObject({ exitCode: 127, killedBy: null });
      expect(r.stderr).toMatch(/no-such-program-xyz: not found/);
      // Found but not executable: the shell's 126, not an infrastructure error.
      await f.sh('echo "echo hi" > not-executable.sh && chmod 644 not-executable.sh');
      const denied = await f.driver.exec({ argv: ['/workspace/not-executable.sh'], workspace: f.workspace });
      expect(denied).toMatchObject({ exitCode: 126, stderr: '/workspace/not-executable.sh: permission denied\n' });
    });

    it('throws an infrastructure error when the sandbox cannot be set up', async () => {
      const missing = { ...f.workspace, path: join(f.dir, 'does-not-exist') };
      await expect(f.driver.exec({ argv: ['true'], workspace: missing })).rejects.toThrow(/runsc could not set up the sandbox/);
    });

    it('refuses to launch a sandbox as root and refuses bad environment names', async () => {
      await expect(f.driver.exec({ argv: ['true'], workspace: { ...f.workspace, uid: 0 } })).rejects.toBeInstanceOf(AppError);
      await expect(f.driver.exec({ argv: ['true'], workspace: f.workspace, env: { 'BAD NAME': 'x' } })).rejects.toThrow(/invalid environment variable name/);
    });

    it('a cancelled exec resolves as cancelled and leaves no process', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const r = await f.sh('sleep 30', {}, { signal: controller.signal });
      expect(r).toMatchObject({ killedBy: 'cancel', exitCode: null, signal: 'SIGKILL' });
      expect(await processesOf(f.workspace.uid)).toEqual([]);
    });

    it('without cgroups, memory is an address-space limit inside gVisor and a cancelled call still leaves nothing', async () => {
      const plain = new GvisorDriver({ stateDir: join(f.dir, 'state-nocg'), cgroups: 'off' });
      try {
        const r = await plain.exec({
          argv: ['/bin/sh', '-c', 'ulimit -v; ulimit -f'],
          workspace: f.workspace,
          limits: { memoryBytes: 256 * 1024 * 1024, workspaceBytes: 8 * 1024 * 1024 },
        });
        expect(r.stdout).toBe(`${256 * 1024}\n${(8 * 1024 * 1024) / 512}\n`);
        expect(r.limits.memoryBytes).toMatchObject({ enforced: true, by: 'rlimit' });
        expect((await plain.probe()).reason).toMatch(/no cgroups/);
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 300);
        const cancelled = await plain.exec({ argv: ['/bin/sh', '-c', 'sleep 30 & setsid sleep 30'], workspace: f.workspace }, { signal: controller.signal });
        expect(cancelled.killedBy).toBe('cancel');
        expect(await processesOf(f.workspace.uid)).toEqual([]);
      } finally {
        await plain.close();
      }
    });

    it('the host pids cgroup leaves room for the Sentry above the limit the command gets inside', () => {
      expect(hostPids(64)).toBeGreaterThan(2 * 64);
    });

    it('the worker environment never reaches runsc or the command', async () => {
      const r = await f.sh('cat /proc/1/environ | tr "\\0" "\\n"');
      expect(r.stdout).not.toMatch(/^(NODE|VITEST|npm_)/m);
      expect(r.stdout).toContain('HOME=/workspace');
    });
  });
});
