import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HostCaps } from '../host-caps';
import { cgroupDir, killPids, readPids, sweepStale, waitFor, type Cgroup, type CgroupHost, type CgroupLimits, type MountInfo } from './cgroup';

// No freezer: every process of an execution is in its PID namespace, which the kernel kills as a
// whole, and each hierarchy a process joins costs a task migration (milliseconds) per execution.
type Controller = 'memory' | 'pids' | 'cpu';
const CONTROLLERS: Controller[] = ['memory', 'pids', 'cpu'];
const PERIOD_US = 100_000;

/**
 * cgroup v1 (also the "hybrid" layout, where memory/pids/cpu live on v1 mounts). Each execution
 * gets a child of `<this process's cgroup>/<parentName>` in every controller. There is no
 * `cgroup.kill` on v1: killAll kills what is listed until nothing is (the pids limit bounds a fork
 * bomb, and the driver has already killed the PID namespace by then).
 */
export class CgroupV1Host implements CgroupHost {
  readonly version = 'v1';
  readonly controllers: { memory: boolean; pids: boolean; cpu: boolean };

  private constructor(private readonly parents: Partial<Record<Controller, string>>) {
    this.controllers = { memory: !!parents.memory, pids: !!parents.pids, cpu: !!parents.cpu };
  }

  /**
   * Finds the v1 controllers and checks that this process may create children there; null if
   * none. The parent gets the host's caps (`parentLimits`), so the sandboxes of this worker
   * together never hold more memory, CPU or processes than one sandbox may; a controller whose
   * parent cannot be limited is not used.
   */
  static async detect(mounts: MountInfo[], paths: Map<string, string>, parentName: string, parentLimits?: HostCaps): Promise<CgroupV1Host | null> {
    const parents: Partial<Record<Controller, string>> = {};
    for (const controller of CONTROLLERS) {
      const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller));
      const path = paths.get(controller);
      if (!mount || path === undefined) continue;
      const parent = join(cgroupDir(mount, path), parentName);
      try {
        await mkdir(parent, { recursive: true });
        await access(join(parent, 'cgroup.procs'));
        if (parentLimits) await limitParent(parent, controller, parentLimits);
        parents[controller] = parent;
      } catch {
        // Not ours to create (read-only cgroupfs, not root), or the cap cannot be set: this controller is unavailable.
        await rmdir(parent).catch(() => undefined);
      }
    }
    if (!parents.memory && !parents.pids && !parents.cpu) return null;
    return new CgroupV1Host(parents);
  }

  async create(name: string): Promise<Cgroup> {
    const dirs: Partial<Record<Controller, string>> = {};
    const group = new CgroupV1(dirs);
    try {
      for (const controller of CONTROLLERS) {
        const parent = this.parents[controller];
        if (!parent) continue;
        const dir = join(parent, name);
        await mkdir(dir);
        dirs[controller] = dir;
      }
      return group;
    } catch (error) {
      await group.destroy();
      throw error;
    }
  }

  async sweep(): Promise<void> {
    await Promise.all(Object.values(this.parents).map((parent) => sweepStale(dirname(parent))));
  }
}

/** Writes one controller's cap on the worker's parent (still empty, so no child can hold more yet). */
async function limitParent(parent: string, controller: Controller, caps: HostCaps): Promise<void> {
  if (controller === 'memory') await writeFile(join(parent, 'memory.limit_in_bytes'), String(caps.memoryBytes));
  if (controller === 'pids') await writeFile(join(parent, 'pids.max'), caps.pids === null ? 'max' : String(caps.pids));
  if (controller === 'cpu') {
    // A child's quota may not exceed its parent's on v1 (EINVAL): executions are capped to the same value.
    await writeFile(join(parent, 'cpu.cfs_period_us'), String(PERIOD_US));
    await writeFile(join(parent, 'cpu.cfs_quota_us'), String(quotaOf(caps.cpus)));
  }
}

/** CPU cores as a CFS quota per {@link PERIOD_US}, at least the kernel's 1 ms. */
function quotaOf(cpus: number): number {
  return Math.max(1000, Math.round(cpus * PERIOD_US));
}

class CgroupV1 implements Cgroup {
  constructor(private readonly dirs: Partial<Record<Controller, string>>) {}

  async setLimits(limits: CgroupLimits): Promise<void> {
    if (this.dirs.memory) {
      // Without swap accounting memsw is absent; with it, swap would otherwise extend the limit. The
      // kernel keeps memsw >= the memory limit (EINVAL otherwise), and a spare may hold a lower
      // one: lift memsw first (the cgroup is still empty), then set both.
      const memsw = join(this.dirs.memory, 'memory.memsw.limit_in_bytes');
      await writeFile(memsw, '-1').catch(() => undefined);
      await writeFile(join(this.dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      await writeFile(memsw, String(limits.memoryBytes)).catch(() => undefined);
    }
    if (this.dirs.pids) await writeFile(join(this.dirs.pids, 'pids.max'), String(limits.pids));
    if (this.dirs.cpu) {
      await writeFile(join(this.dirs.cpu, 'cpu.cfs_period_us'), String(PERIOD_US));
      await writeFile(join(this.dirs.cpu, 'cpu.cfs_quota_us'), String(quotaOf(limits.cpus)));
    }
  }

  async add(pid: number): Promise<void> {
    for (const dir of Object.values(this.dirs)) await writeFile(join(dir, 'cgroup.procs'), String(pid));
  }

  selfAttachFiles(): string[] {
    // `tasks`, not `cgroup.procs`: only a single thread moving itself avoids the threadgroup lock.
    return Object.values(this.dirs).map((dir) => join(dir, 'tasks'));
  }

  async killAll(): Promise<void> {
    const procs = this.procsFile();
    if (!procs) return;
    // The common case after a normal exit: nothing left.
    if ((await readPids(procs)).length === 0) return;
    await waitFor(async () => {
      const pids = await readPids(procs);
      killPids(pids);
      return pids.length === 0;
    }, 5000);
  }

  async oomKilled(): Promise<boolean> {
    if (!this.dirs.memory) return false;
    const text = await readFile(join(this.dirs.memory, 'memory.oom_control'), 'utf8').catch(() => '');
    return Number(/oom_kill (\d+)/.exec(text)?.[1] ?? 0) > 0;
  }

  async destroy(): Promise<void> {
    for (const dir of Object.values(this.dirs)) {
      // rmdir fails with EBUSY for a moment after the last task exits.
      await waitFor(
        () =>
          rmdir(dir).then(
            () => true,
            (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
          ),
        2000,
      );
    }
  }

  private procsFile(): string | null {
    const dir = this.dirs.pids ?? this.dirs.memory ?? this.dirs.cpu;
    return dir ? join(dir, 'cgroup.procs') : null;
  }
}
