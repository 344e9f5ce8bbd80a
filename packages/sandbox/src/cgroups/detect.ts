import { randomUUID } from 'node:crypto';
import type { HostCaps } from '../host-caps';
import type { CgroupHost } from './cgroup';
import { readSelfCgroupInfo } from './cgroup';
import { CgroupV1Host } from './cgroup-v1';
import { CgroupV2Host } from './cgroup-v2';

/** Every driver instance gets its own parent, `looplane-sandbox/w-<pid>-<id>`, so sweeping stale ones never races a live worker. */
function parentName(): string {
  return `looplane-sandbox/w-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/**
 * Finds a cgroup hierarchy this process can subdivide: v1 controllers first (a hybrid host binds
 * memory/pids/cpu to v1, leaving the unified mount empty), then v2. Returns the reason when none.
 * `parentLimits` go on this worker's parent, before any execution's cgroup exists under it.
 */
export async function detectCgroups(parentLimits?: HostCaps): Promise<CgroupHost | { unavailable: string }> {
  try {
    const { mounts, paths } = await readSelfCgroupInfo();
    const parent = parentName();
    const v1 = await CgroupV1Host.detect(mounts, paths, parent, parentLimits);
    if (v1) return v1;
    const v2 = await CgroupV2Host.detect(mounts, paths, parent, parentLimits);
    return typeof v2 === 'string' ? { unavailable: v2 } : v2;
  } catch (error) {
    return { unavailable: `cannot read this process's cgroups: ${(error as Error).message}` };
  }
}
