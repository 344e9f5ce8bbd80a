import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HostCaps } from '../host-caps';
import { cgroupDir, killPids, readPids, sweepStale, waitFor, type Cgroup, type CgroupHost, type CgroupLimits, type MountInfo } from './cgroup';

const WANTED = ['memory', 'pids', 'cpu'] as const;
const PERIOD_US = 100_000;

/**
 * cgroup v2 (unified). Executions become children of `<this process's cgroup>/<parentName>`.
 * v2 forbids enabling controllers for children of a cgroup that holds processes (except the root),
 * so this works where the worker runs in a delegated cgroup it can subdivide (systemd
 * `Delegate=yes`, a container with its own cgroup namespace at the root); elsewhere detection
 * says why and the driver reports the limits as not enforced.
 */
export class CgroupV2Host implements CgroupHost {
  readonly version = 'v2';

  private constructor(
    private readonly parent: string,
    readonly controllers: { memory: boolean; pids: boolean; cpu: boolean },
  ) {}

  /**
   * Returns the host, or the reason v2 cannot be used here. The parent gets the host's caps
   * (`parentLimits`), so this worker's sandboxes together stay within what one may hold.
   */
  static async detect(mounts: MountInfo[], paths: Map<string, string>, parentName: string, parentLimits?: HostCaps): Promise<CgroupV2Host | string> {
    const mount = mounts.find((m) => m.fsType === 'cgroup2');
    const path = paths.get('');
    if (!mount || path === undefined) return 'no cgroup v2 mount';
    const self = cgroupDir(mount, path);
    const available = (await readFile(join(self, 'cgroup.controllers'), 'utf8').catch(() => '')).trim().split(/\s+/);
    const usable = WANTED.filter((c) => available.includes(c));
    if (usable.length === 0) return `cgroup v2 at ${self} offers none of memory, pids, cpu`;
    const enable = usable.map((c) => `+${c}`).join(' ');
    const parent = join(self, parentName);
    try {
      await writeFile(join(self, 'cgroup.subtree_control'), enable);
      await mkdir(parent, { recursive: true });
      await writeFile(join(dirname(parent), 'cgroup.subtree_control'), enable);
      await writeFile(join(parent, 'cgroup.subtree_control'), enable);
      if (parentLimits) await limitParent(parent, usable, parentLimits);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'EBUSY'
        ? `cgroup v2: ${self} holds processes, so controllers cannot be delegated to children; run the worker in a delegated cgroup`
        : `cgroup v2: cannot create children of ${self} (${code ?? String(error)})`;
    }
    return new CgroupV2Host(parent, { memory: usable.includes('memory'), pids: usable.includes('pids'), cpu: usable.includes('cpu') });
  }

  async create(name: string): Promise<Cgroup> {
    const dir = join(this.parent, name);
    await mkdir(dir);
    return new CgroupV2(dir, this.controllers);
  }

  async sweep(): Promise<void> {
    await sweepStale(dirname(this.parent));
  }
}

/** Writes the caps of the enabled controllers on the worker's parent. */
async function limitParent(parent: string, usable: readonly string[], caps: HostCaps): Promise<void> {
  if (usable.includes('memory')) await writeFile(join(parent, 'memory.max'), String(caps.memoryBytes));
  if (usable.includes('pids')) await writeFile(join(parent, 'pids.max'), caps.pids === null ? 'max' : String(caps.pids));
  if (usable.includes('cpu')) await writeFile(join(parent, 'cpu.max'), cpuMax(caps.cpus));
}

/** `cpu.max` for a number of cores, at least the kernel's 1 ms per period. */
function cpuMax(cpus: number): string {
  return `${Math.max(1000, Math.round(cpus * PERIOD_US))} ${PERIOD_US}`;
}

class CgroupV2 implements Cgroup {
  constructor(
    private readonly dir: string,
    private readonly controllers: { memory: boolean; pids: boolean; cpu: boolean },
  ) {}

  async setLimits(limits: CgroupLimits): Promise<void> {
    if (this.controllers.memory) {
      await writeFile(join(this.dir, 'memory.max'), String(limits.memoryBytes));
      await writeFile(join(this.dir, 'memory.swap.max'), '0').catch(() => undefined);
    }
    if (this.controllers.pids) await writeFile(join(this.dir, 'pids.max'), String(limits.pids));
    if (this.controllers.cpu) await writeFile(join(this.dir, 'cpu.max'), cpuMax(limits.cpus));
  }

  async add(pid: number): Promise<void> {
    await writeFile(join(this.dir, 'cgroup.procs'), String(pid));
  }

  selfAttachFiles(): null {
    // v2 moves whole processes only (cgroup.procs), under the threadgroup lock either way.
    return null;
  }

  async killAll(): Promise<void> {
    const procs = join(this.dir, 'cgroup.procs');
    if ((await readPids(procs)).length === 0) return;
    // cgroup.kill (Linux 5.14+) kills atomically, forks included; older kernels get the loop only.
    await writeFile(join(this.dir, 'cgroup.kill'), '1').catch(() => undefined);
    await waitFor(async () => {
      const pids = await readPids(procs);
      killPids(pids);
      return pids.length === 0;
    }, 5000);
  }

  async oomKilled(): Promise<boolean> {
    const text = await readFile(join(this.dir, 'memory.events'), 'utf8').catch(() => '');
    return Number(/oom_kill (\d+)/.exec(text)?.[1] ?? 0) > 0;
  }

  async destroy(): Promise<void> {
    await waitFor(
      () =>
        rmdir(this.dir).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        ),
      2000,
    );
  }
}
