// Podman is optional: where it cannot run at all, every case is skipped with the probe's reason
// printed. Where it runs but the host ignores its limits (rootless on cgroup v1), the refusal
// itself is what is tested.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { DriverProbe } from '../types';
import { WorkspaceManager, type Workspace } from '../workspace/workspace-manager';
import { PodmanDriver } from './podman.driver';

const ACCOUNT = 'looplane-podman';
let dir: string;
let reporting: PodmanDriver;
let refusing: PodmanDriver;
let probe: DriverProbe;
let workspace: Workspace | null = null;

function account(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, ACCOUNT], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

function needPodman(ctx: TestContext): Workspace {
  if (!probe.available || !workspace) {
    // Printed by the reporter: a skipped podman case always says why.
    ctx.skip(`podman cannot run here: ${probe.reason}`);
  }
  return workspace as Workspace;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'looplane-podman-test-'));
  await chmod(dir, 0o755);
  reporting = new PodmanDriver({ stateDir: join(dir, 'state'), user: ACCOUNT, unenforcedLimits: 'report' });
  refusing = new PodmanDriver({ stateDir: join(dir, 'state'), user: ACCOUNT });
  probe = await reporting.probe();
  const owner = account();
  if (probe.available && owner) {
    const workspaces = new WorkspaceManager({ root: join(dir, 'ws'), owners: { kind: 'fixed', ...owner } });
    workspace = await workspaces.create('podman-session');
  } else {
    // The default reporter hides skip notes: say it where CI logs show it.
    process.stderr.write(`podman driver tests skipped: ${probe.reason}\n`);
  }
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('podman driver', () => {
  it('reports exactly which limits the host enforces, and refuses when some are ignored', async (ctx) => {
    const ws = needPodman(ctx);
    const enforced = probe.limitsEnforced;
    const ignored = (['cpus', 'memoryBytes', 'pids'] as const).filter((l) => !enforced[l].enforced);
    const refusal = await refusing.probe();
    if (ignored.length === 0) {
      expect(refusal.available).toBe(true);
      return;
    }
    expect(probe.reason).toMatch(/without their memory\/pids\/cpu limits/);
    expect(refusal).toMatchObject({ available: false });
    expect(refusal.reason).toMatch(new RegExp(`does not enforce ${ignored.join(', ')}`));
    await expect(refusing.exec({ argv: ['true'], workspace: ws })).rejects.toThrow(/refusing to run/);
  });

  it('runs a command in the workspace with stdin and env, output split by stream', async (ctx) => {
    const ws = needPodman(ctx);
    const r = await reporting.exec({
      argv: ['/bin/sh', '-c', 'read l; echo "$l $X $(pwd)"; echo e >&2; touch made; exit 4'],
      workspace: ws,
      stdin: 'in\n',
      env: { X: 'y' },
    });
    expect(r).toMatchObject({ exitCode: 4, stdout: 'in y /workspace\n', stderr: 'e\n', killedBy: null });
    expect(r.limits.wallTimeMs.enforced).toBe(true);
  });

  it('isolates like the bwrap sandbox: no network, read-only root, no capabilities, unprivileged uid, no host secrets', async (ctx) => {
    const ws = needPodman(ctx);
    process.env.LOOPLANE_FAKE_SECRET = 'FAKE-PODMAN-SECRET';
    try {
      const r = await reporting.exec({
        argv: [
          '/bin/sh',
          '-c',
          `env; cat /proc/1/environ; echo; ls /sys/class/net; touch /pwned 2>&1; grep CapEff /proc/self/status; id -u; timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432' 2>/dev/null && echo OPEN || echo CLOSED; cat /etc/shadow 2>&1 | head -1`,
        ],
        workspace: ws,
      });
      expect(r.stdout).not.toContain('FAKE-PODMAN-SECRET');
      expect(r.stdout).toMatch(/^lo$/m);
      expect(r.stdout).toMatch(/Read-only file system/);
      expect(r.stdout).toMatch(/CapEff:\s+0{16}/);
      expect(r.stdout).toMatch(new RegExp(`^${ws.uid}$`, 'm'));
      expect(r.stdout).toMatch(/^CLOSED$/m);
      expect(r.stdout).not.toMatch(/^root:/m);
    } finally {
      delete process.env.LOOPLANE_FAKE_SECRET;
    }
  });

  it('a timed-out container is removed with podman rm -f: nothing keeps running', async (ctx) => {
    const ws = needPodman(ctx);
    const started = Date.now();
    const r = await reporting.exec({ argv: ['/bin/sh', '-c', 'setsid sleep 300 & sleep 300'], workspace: ws, limits: { wallTimeMs: 2000 } });
    expect(r.killedBy).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(15_000);
    const home =
      execFileSync('sh', ['-c', `getent passwd ${ACCOUNT} | cut -d: -f6`])
        .toString()
        .trim() || process.env.HOME;
    const ps = execFileSync('podman', ['ps', '-a', '--format', '{{.Names}}'], {
      ...(process.getuid?.() === 0 ? { uid: ws.uid, gid: ws.gid } : {}),
      env: { PATH: '/usr/bin:/bin:/usr/sbin', HOME: home ?? '/' },
      cwd: '/',
    }).toString();
    expect(ps.split('\n').filter((n) => n.startsWith('looplane-'))).toEqual([]);
  }, 60_000);

  it("the runsc runtime runs the container under gVisor's kernel, with the same isolation", async (ctx) => {
    const ws = needPodman(ctx);
    const gvisor = new PodmanDriver({ stateDir: join(dir, 'state'), user: ACCOUNT, unenforcedLimits: 'report', runtime: 'runsc' });
    const runscProbe = await gvisor.probe();
    if (!runscProbe.available && /runsc/.test(runscProbe.reason ?? '') && !hasRunsc()) return ctx.skip(`runsc is not installed: ${runscProbe.reason}`);
    expect(runscProbe).toMatchObject({ available: true, reason: expect.stringMatching(/^runtime runsc/) });
    const r = await gvisor.exec({
      argv: ['/bin/sh', '-c', 'uname -r; grep CapEff /proc/self/status; touch made-in-gvisor && echo wrote; tail -n +3 /proc/net/dev | cut -d: -f1'],
      workspace: ws,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).not.toBe(release());
    expect(r.stdout).toMatch(/CapEff:\s+0{16}/);
    expect(r.stdout).toMatch(/^wrote$/m);
    expect(r.stdout).not.toMatch(/^eth/m);
  }, 60_000);

  it('the crun runtime works, or its probe says why it cannot on this host (crun refuses hybrid hosts whose cgroup v2 holds controllers)', async (ctx) => {
    const ws = needPodman(ctx);
    const crun = new PodmanDriver({ stateDir: join(dir, 'state'), user: ACCOUNT, unenforcedLimits: 'report', runtime: 'crun' });
    const crunProbe = await crun.probe();
    if (hybridCgroups()) {
      expect(crunProbe).toMatchObject({
        available: false,
        reason: expect.stringMatching(
          /cgroups in hybrid mode not supported.*\(runtime crun\); crun runs on such a host once the cgroup v2 hierarchy holds no controllers/s,
        ),
      });
    } else {
      expect(crunProbe).toMatchObject({ available: true, reason: expect.stringMatching(/^runtime crun/) });
      // The same isolation as runc: the host's kernel, no capabilities, no network, the workspace writable.
      const r = await crun.exec({
        argv: ['/bin/sh', '-c', 'uname -r; grep CapEff /proc/self/status; touch made-by-crun && echo wrote; tail -n +3 /proc/net/dev | cut -d: -f1'],
        workspace: ws,
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(release());
      expect(r.stdout).toMatch(/CapEff:\s+0{16}/);
      expect(r.stdout).toMatch(/^wrote$/m);
      expect(
        r.stdout
          .split('\n')
          .slice(3)
          .map((l) => l.trim())
          .filter(Boolean),
      ).toEqual(['lo']);
    }
  }, 60_000);
});

function hasRunsc(): boolean {
  try {
    execFileSync('runsc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A cgroup v2 hierarchy mounted beside v1 ones (`/sys/fs/cgroup/unified`) that holds a controller:
 * crun refuses such hosts (.ci/run moves hugetlb to v1, after which crun runs).
 */
function hybridCgroups(): boolean {
  const lines = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  const unified = lines.find((line) => / - cgroup2 /.test(line))?.split(' ')[4];
  if (!unified || !lines.some((line) => / - cgroup /.test(line))) return false;
  return readFileSync(join(unified, 'cgroup.controllers'), 'utf8').trim() !== '';
}
