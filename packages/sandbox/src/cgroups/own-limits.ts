import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cgroupDir, readSelfCgroupInfo, type MountInfo } from './cgroup';

/** Limits the cgroups this process runs in put on it (and so on every sandbox it starts); null where none is set. */
export interface OwnCgroupLimits {
  memoryBytes: number | null;
  /** CPU bandwidth in cores (quota / period). */
  cpus: number | null;
  pids: number | null;
}

// v1 writes "no limit" as the largest page-aligned 64-bit value; anything this large is none.
const UNLIMITED_BYTES = 2 ** 60;

/**
 * The tightest limit along `dir` and its ancestors up to the mount point: a cgroup is held to
 * every ancestor's limit too, so a worker in a child of a limited cgroup is limited as well.
 */
async function tightest(dir: string, mountPoint: string, read: (dir: string) => Promise<number | null>): Promise<number | null> {
  let best: number | null = null;
  for (let current = dir; ; current = dirname(current)) {
    const value = await read(current).catch(() => null);
    if (value !== null && (best === null || value < best)) best = value;
    if (current === mountPoint || !current.startsWith(mountPoint) || dirname(current) === current) return best;
  }
}

const text = (file: string) => readFile(file, 'utf8').then((t) => t.trim());

/** Parses a number file; "max", -1 and v1's huge "unlimited" values are no limit. */
function limitOf(value: string): number | null {
  if (value === 'max' || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 && n < UNLIMITED_BYTES ? n : null;
}

/** v2 `cpu.max` ("max 100000" or "50000 100000") in cores. */
function cpusOfCpuMax(value: string): number | null {
  const [quota, period] = value.split(/\s+/);
  if (!quota || quota === 'max') return null;
  const q = Number(quota);
  const p = Number(period ?? 100_000);
  return q > 0 && p > 0 ? q / p : null;
}

const READERS = {
  v1: {
    memory: async (dir: string) => limitOf(await text(`${dir}/memory.limit_in_bytes`)),
    cpu: async (dir: string) => {
      const [quota, period] = await Promise.all([text(`${dir}/cpu.cfs_quota_us`), text(`${dir}/cpu.cfs_period_us`)]);
      const q = Number(quota);
      const p = Number(period);
      return q > 0 && p > 0 ? q / p : null;
    },
    pids: async (dir: string) => limitOf(await text(`${dir}/pids.max`)),
  },
  v2: {
    memory: async (dir: string) => limitOf(await text(`${dir}/memory.max`)),
    cpu: async (dir: string) => cpusOfCpuMax(await text(`${dir}/cpu.max`)),
    pids: async (dir: string) => limitOf(await text(`${dir}/pids.max`)),
  },
} as const;

type Controller = keyof (typeof READERS)['v1'];

/**
 * Reads the limits of the cgroups this process is in, controller by controller: the v1 hierarchy
 * where the controller is bound to one (a hybrid host), else the unified v2 one. Unreadable
 * files count as no limit (the host's own totals still cap every sandbox).
 */
export async function readOwnCgroupLimits(info?: { mounts: MountInfo[]; paths: Map<string, string> }): Promise<OwnCgroupLimits> {
  const { mounts, paths } = info ?? (await readSelfCgroupInfo().catch(() => ({ mounts: [], paths: new Map<string, string>() })));
  const v2 = mounts.find((m) => m.fsType === 'cgroup2');
  const unified = paths.get('');
  const one = async (controller: Controller): Promise<number | null> => {
    const v1 = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller));
    const v1Path = paths.get(controller);
    if (v1 && v1Path !== undefined) return tightest(cgroupDir(v1, v1Path), v1.mountPoint, READERS.v1[controller]);
    if (v2 && unified !== undefined) return tightest(cgroupDir(v2, unified), v2.mountPoint, READERS.v2[controller]);
    return null;
  };
  const [memoryBytes, cpus, pids] = await Promise.all([one('memory'), one('cpu'), one('pids')]);
  return { memoryBytes, cpus, pids };
}
