import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cgroupDir, parseMountInfo, parseProcCgroup } from './cgroup';
import { CgroupV2Host } from './cgroup-v2';

const HYBRID_MOUNTINFO = `
30 23 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate
34 30 0:30 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:14 - cgroup cgroup rw,memory
35 30 0:31 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpu,cpuacct
40 30 0:36 / /sys/fs/cgroup/with\\040space rw - cgroup cgroup rw,pids
`;

describe('cgroup discovery', () => {
  it('parses mountinfo, including the super options and escaped paths', () => {
    const mounts = parseMountInfo(HYBRID_MOUNTINFO);
    expect(mounts.find((m) => m.fsType === 'cgroup2')?.mountPoint).toBe('/sys/fs/cgroup/unified');
    expect(mounts.find((m) => m.superOptions.includes('cpu'))).toMatchObject({ root: '/docker/abc', mountPoint: '/sys/fs/cgroup/cpu,cpuacct' });
    expect(mounts.find((m) => m.superOptions.includes('pids'))?.mountPoint).toBe('/sys/fs/cgroup/with space');
  });

  it('parses /proc/self/cgroup for v1 controllers and the v2 entry', () => {
    const paths = parseProcCgroup('12:pids:/a\n4:cpu,cpuacct:/docker/abc/x\n1:name=systemd:/s\n0::/user.slice\n');
    expect(paths.get('pids')).toBe('/a');
    expect(paths.get('cpuacct')).toBe('/docker/abc/x');
    expect(paths.get('systemd')).toBe('/s');
    expect(paths.get('')).toBe('/user.slice');
  });

  it('maps a cgroup path into a mount whose root is a prefix of it', () => {
    const [mount] = parseMountInfo(HYBRID_MOUNTINFO).filter((m) => m.root === '/docker/abc');
    expect(cgroupDir(mount!, '/docker/abc/x')).toBe('/sys/fs/cgroup/cpu,cpuacct/x');
    expect(cgroupDir({ root: '/', mountPoint: '/sys/fs/cgroup/memory', fsType: 'cgroup', superOptions: [] }, '/')).toBe('/sys/fs/cgroup/memory');
  });
});

describe('cgroup v2 (against a directory laid out like cgroupfs)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cgv2-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const mounts = () => [{ root: '/', mountPoint: dir, fsType: 'cgroup2', superOptions: ['rw'] }];

  it('says why when the controllers are not there', async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'io\n');
    expect(await CgroupV2Host.detect(mounts(), new Map([['', '/']]), 'looplane-sandbox')).toMatch(/offers none of memory, pids, cpu/);
    expect(await CgroupV2Host.detect([], new Map(), 'x')).toBe('no cgroup v2 mount');
  });

  it('delegates the controllers and writes the limits of an execution', async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'cpu io memory pids\n');
    const own = `looplane-sandbox/w-${process.pid}-test`;
    const host = await CgroupV2Host.detect(mounts(), new Map([['', '/']]), own);
    if (typeof host === 'string') throw new Error(host);
    expect(host.controllers).toEqual({ memory: true, pids: true, cpu: true });
    expect(await readFile(join(dir, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids +cpu');
    const parent = join(dir, own);
    await (await host.create('exec-1')).setLimits({ memoryBytes: 1048576, pids: 32, cpus: 0.5 });
    expect(await readFile(join(parent, 'exec-1', 'memory.max'), 'utf8')).toBe('1048576');
    expect(await readFile(join(parent, 'exec-1', 'pids.max'), 'utf8')).toBe('32');
    expect(await readFile(join(parent, 'exec-1', 'cpu.max'), 'utf8')).toBe('50000 100000');
    await mkdir(join(parent, 'exec-2'));
    await expect(host.create('exec-2')).rejects.toThrow();
  });

  it("gives the worker's parent the host's caps before any execution exists under it", async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'cpu memory pids\n');
    const own = `looplane-sandbox/w-${process.pid}-caps`;
    const host = await CgroupV2Host.detect(mounts(), new Map([['', '/']]), own, { memoryBytes: 20 * 1048576, cpus: 2, pids: null });
    if (typeof host === 'string') throw new Error(host);
    expect(await readFile(join(dir, own, 'memory.max'), 'utf8')).toBe(String(20 * 1048576));
    expect(await readFile(join(dir, own, 'cpu.max'), 'utf8')).toBe('200000 100000');
    expect(await readFile(join(dir, own, 'pids.max'), 'utf8')).toBe('max');
  });

  it("sweeps what dead workers left, never a live worker's cgroups", async () => {
    await writeFile(join(dir, 'cgroup.controllers'), 'memory pids\n');
    const host = await CgroupV2Host.detect(mounts(), new Map([['', '/']]), `looplane-sandbox/w-${process.pid}-live`);
    if (typeof host === 'string') throw new Error(host);
    const dead = join(dir, 'looplane-sandbox', 'w-2147483646-dead');
    await mkdir(join(dead, 'exec-old'), { recursive: true });
    await mkdir(join(dir, 'looplane-sandbox', `w-${process.pid}-live`, 'exec-spare'));
    await host.sweep();
    await expect(stat(dead)).rejects.toThrow();
    expect((await stat(join(dir, 'looplane-sandbox', `w-${process.pid}-live`, 'exec-spare'))).isDirectory()).toBe(true);
  });
});
