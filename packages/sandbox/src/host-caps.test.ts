import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOwnCgroupLimits } from './cgroups/own-limits';
import { capToHost, hostCapsOf, memoryReserve } from './host-caps';
import { resolveLimits } from './limits';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const NO_CGROUP = { memoryBytes: null, cpus: null, pids: null };

describe('host caps', () => {
  it('caps memory at the total less a reserve and CPUs at the CPU count (a 23 GiB, 2-CPU host)', () => {
    const caps = hostCapsOf({ totalMemoryBytes: 23 * GiB, cpuCount: 2, cgroup: NO_CGROUP });
    expect(caps).toEqual({ memoryBytes: Math.floor((23 * GiB - memoryReserve(23 * GiB)) / MiB) * MiB, cpus: 2, pids: null });
    expect(caps.memoryBytes % MiB).toBe(0);
    expect(caps.memoryBytes).toBeLessThan(21 * GiB);
    expect(caps.memoryBytes).toBeGreaterThan(20 * GiB);
    // 64 GiB and 64 CPUs asked for: the host's values are what a sandbox gets.
    expect(capToHost(resolveLimits({ memoryBytes: 64 * GiB, cpus: 64, tmpBytes: 64 * GiB }), caps)).toMatchObject({
      memoryBytes: caps.memoryBytes,
      tmpBytes: caps.memoryBytes,
      cpus: 2,
    });
  });

  it("takes the worker's own cgroup limits where they are tighter", () => {
    const caps = hostCapsOf({ totalMemoryBytes: 64 * GiB, cpuCount: 16, cgroup: { memoryBytes: 4 * GiB, cpus: 1.5, pids: 1000 } });
    expect(caps).toEqual({ memoryBytes: Math.floor((4 * GiB - memoryReserve(4 * GiB)) / MiB) * MiB, cpus: 1.5, pids: 936 });
    expect(capToHost(resolveLimits({ pids: 4096 }), caps).pids).toBe(936);
  });

  it('keeps a reserve between 256 MiB and half, and never goes below what a sandbox needs', () => {
    expect(memoryReserve(GiB)).toBe(256 * MiB);
    expect(memoryReserve(100 * GiB)).toBe(10 * GiB);
    expect(memoryReserve(256 * MiB)).toBe(128 * MiB);
    expect(hostCapsOf({ totalMemoryBytes: 8 * MiB, cpuCount: 1, cgroup: { ...NO_CGROUP, cpus: 0.01 } })).toEqual({
      memoryBytes: 16 * MiB,
      cpus: 0.05,
      pids: null,
    });
  });

  it('leaves lower asks alone', () => {
    const asked = resolveLimits({ memoryBytes: 256 * MiB, cpus: 0.5 });
    expect(capToHost(asked, { memoryBytes: GiB, cpus: 2, pids: 100 })).toEqual({ ...asked, pids: 100 });
  });
});

describe("the worker's own cgroup limits (against directories laid out like cgroupfs)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cg-own-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const file = async (path: string, text: string) => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };

  it('v1: the tightest limit of the cgroup and its ancestors; "unlimited" values are none', async () => {
    await file('memory/memory.limit_in_bytes', '9223372036854771712\n');
    await file('memory/svc/memory.limit_in_bytes', `${8 * GiB}\n`);
    await file('memory/svc/worker/memory.limit_in_bytes', '9223372036854771712\n');
    await file('cpu/cpu.cfs_quota_us', '-1\n');
    await file('cpu/cpu.cfs_period_us', '100000\n');
    await file('cpu/svc/worker/cpu.cfs_quota_us', '150000\n');
    await file('cpu/svc/worker/cpu.cfs_period_us', '100000\n');
    await file('pids/svc/worker/pids.max', 'max\n');
    const mounts = ['memory', 'cpu', 'pids'].map((c) => ({ root: '/', mountPoint: join(dir, c), fsType: 'cgroup', superOptions: ['rw', c] }));
    const paths = new Map(['memory', 'cpu', 'pids'].map((c) => [c, '/svc/worker']));
    expect(await readOwnCgroupLimits({ mounts, paths })).toEqual({ memoryBytes: 8 * GiB, cpus: 1.5, pids: null });
  });

  it('v2: memory.max, cpu.max and pids.max along the path', async () => {
    await file('worker.slice/memory.max', `${2 * GiB}\n`);
    await file('worker.slice/cpu.max', 'max 100000\n');
    await file('worker.slice/w/memory.max', 'max\n');
    await file('worker.slice/w/cpu.max', '50000 100000\n');
    await file('worker.slice/w/pids.max', '512\n');
    const mounts = [{ root: '/', mountPoint: dir, fsType: 'cgroup2', superOptions: ['rw'] }];
    expect(await readOwnCgroupLimits({ mounts, paths: new Map([['', '/worker.slice/w']]) })).toEqual({ memoryBytes: 2 * GiB, cpus: 0.5, pids: 512 });
    expect(await readOwnCgroupLimits({ mounts: [], paths: new Map() })).toEqual(NO_CGROUP);
  });
});
