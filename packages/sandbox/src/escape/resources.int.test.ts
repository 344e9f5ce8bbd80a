// Escape suite, resources: bombs and floods. Each must end inside its limit, leave the host
// usable and leave nothing running.
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  let f: SandboxFixture;
  beforeAll(async () => {
    // The floods must end by their own limit; a generous clock keeps a loaded machine from ending
    // them by time first (the timeout tests pass their own, shorter, limit).
    f = await sandboxFixture({ kind, limits: { wallTimeMs: 30_000 } });
  });
  afterAll(() => f.close());

  async function nothingLeft(): Promise<void> {
    expect(await f.leftovers()).toEqual([]);
  }

  describe('escape: resources', () => {
    it('a fork bomb hits the pids limit, ends with the call and leaves nothing', async () => {
      const started = Date.now();
      // `set --` and `echo` are builtins: counting must work while fork fails.
      const r = await f.sh('bomb() { bomb | bomb & }; bomb; sleep 1; set -- /proc/[0-9]*; echo "procs=$#"', { wallTimeMs: 4000, pids: 64 });
      expect(Date.now() - started).toBeLessThan(8000);
      const procs = Number(/procs=(\d+)/.exec(r.stdout)?.[1] ?? 0);
      if (r.limits.pids.enforced) expect(procs).toBeLessThanOrEqual(64);
      expect(r.stderr + r.stdout).toMatch(/fork|Resource temporarily unavailable|procs=/);
      await nothingLeft();
    });

    it('a memory bomb is killed by the memory limit and reported as such', async () => {
      const r = await f.sh(`perl -e '$x = "a" x (512 * 1024 * 1024); print length($x), "\\n"'`, { memoryBytes: 128 * 1024 * 1024 });
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain(String(512 * 1024 * 1024));
      if (r.limits.memoryBytes.by?.startsWith('cgroup')) expect(r.oomKilled).toBe(true);
      await nothingLeft();
    });

    it('a disk fill with one big file stops at the per-file limit and the workspace is reset', async () => {
      const head = await f.workspaces.head(f.workspace.sessionId);
      const r = await f.tool('shell', { command: 'dd if=/dev/zero of=big bs=1M count=200 2>&1; echo "dd=$?"' });
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/disk limit/);
      expect(await readdir(f.workspace.path)).toEqual([]);
      expect(r.commit).toBe(head);
    });

    it('a disk fill with many files is caught by the watchdog and the workspace is reset', async () => {
      const r = await f.tool('shell', { command: 'i=0; while :; do head -c 1048576 /dev/zero > f$i || exit 1; i=$((i+1)); done' });
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/disk limit/);
      expect(await readdir(f.workspace.path)).toEqual([]);
    });

    it('an inode fill (empty files) is caught as a disk fill', async () => {
      const r = await f.tool('shell', { command: 'mkdir d && cd d && i=0; while :; do : > $i; i=$((i+1)); done' });
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/disk limit/);
      expect(await readdir(f.workspace.path)).toEqual([]);
    });

    it('filling /tmp stops at the tmpfs size', async () => {
      const r = await f.sh('dd if=/dev/zero of=/tmp/fill bs=1M count=100 2>&1; dd if=/dev/zero of=/dev/shm/fill bs=1M count=100 2>&1; du -sm /tmp /dev/shm');
      expect(r.stdout).toMatch(/No space left on device/);
      for (const line of r.stdout.trim().split('\n').slice(-2)) expect(Number(line.split(/\s+/)[0])).toBeLessThanOrEqual(8);
    });

    it('runaway output is cut at the output limit, marked, and the writer killed', async () => {
      const started = Date.now();
      const r = await f.sh('yes looplane', { outputBytes: 64 * 1024, wallTimeMs: 10_000 });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(r.killedBy).toBe('output-limit');
      expect(r.truncated).toBe(true);
      expect(r.stdout).toMatch(/\[output truncated: the 65536-byte output limit was reached and the process was killed\]$/);
      expect(Buffer.byteLength(r.stdout)).toBeLessThan(64 * 1024 + 200);
      await nothingLeft();
    });

    it('sleeping past the timeout is killed at the wall-time limit and leaves nothing', async () => {
      const started = Date.now();
      const r = await f.tool('shell', { command: 'sleep 60', timeout_ms: 1000 });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/killed: the 1000 ms time limit was reached/);
      await nothingLeft();
    });

    it('a CPU hog is held to its CPU quota', async (ctx) => {
      const r = await f.sh(`perl -MTime::HiRes=time -e '$e = time + 1.5; 1 while time < $e; my ($u, $s) = times; printf "%.2f\\n", $u + $s'`, { cpus: 0.2 });
      if (!r.limits.cpus.enforced) return ctx.skip('no cpu cgroup on this host: the CPU limit is reported as not enforced');
      if (kind === 'microvm') {
        // An emulated (TCG) guest's CPU clock is not the host's: the guest kernel's own throttle counters show the quota holding.
        const stat = await f.sh(`perl -MTime::HiRes=time -e '$e = time + 1.5; 1 while time < $e'; cat /sys/fs/cgroup/call/cpu.stat`, { cpus: 0.2 });
        expect(Number(/^nr_throttled (\d+)$/m.exec(stat.stdout)?.[1] ?? 0)).toBeGreaterThan(5);
        return;
      }
      expect(Number(r.stdout.trim())).toBeLessThan(0.75);
    });
  });
});
