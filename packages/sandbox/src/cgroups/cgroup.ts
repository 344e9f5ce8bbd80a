import { readdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Limits a cgroup holds for one execution. */
export interface CgroupLimits {
  memoryBytes: number;
  pids: number;
  cpus: number;
}

/** One execution's cgroup: processes placed in it are held to its limits and can be killed together. */
export interface Cgroup {
  /** Writes the limits (before any process is added). */
  setLimits(limits: CgroupLimits): Promise<void>;
  /** Moves a process in; its future children are born inside. */
  add(pid: number): Promise<void>;
  /**
   * Files through which a single-threaded process moves itself in by writing "0"; null where the
   * hierarchy has none (v2). On v1 a thread moving itself skips the global threadgroup lock, whose
   * RCU grace period makes moving another process cost milliseconds (see CgroupSpares).
   */
  selfAttachFiles(): string[] | null;
  /** Kills every process in the cgroup and waits until it is empty. */
  killAll(): Promise<void>;
  /** True when the kernel OOM-killed a process in it. */
  oomKilled(): Promise<boolean>;
  /** Removes the cgroup (after killAll). */
  destroy(): Promise<void>;
}

/** The cgroup hierarchy this process may create children in, and which controllers it has. */
export interface CgroupHost {
  readonly version: 'v1' | 'v2';
  readonly controllers: { memory: boolean; pids: boolean; cpu: boolean };
  /** Creates an empty cgroup without limits (see CgroupSpares: creation is kept off the exec path). */
  create(name: string): Promise<Cgroup>;
  /** Removes the cgroups of workers that died (run once at start). */
  sweep(): Promise<void>;
}

export interface MountInfo {
  root: string;
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

/** Parses /proc/self/mountinfo (the fields after " - " are fstype, source, super options). */
export function parseMountInfo(text: string): MountInfo[] {
  const mounts: MountInfo[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const fields = left.split(' ');
    const [fsType, , options] = right.split(' ');
    if (!fields[3] || !fields[4] || !fsType) continue;
    mounts.push({ root: unescapeOctal(fields[3]), mountPoint: unescapeOctal(fields[4]), fsType, superOptions: (options ?? '').split(',') });
  }
  return mounts;
}

/** Parses /proc/self/cgroup into controller → path ("" is the v2 unified entry). */
export function parseProcCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, controllers = '', path = '/'] = match;
    if (controllers === '') paths.set('', path);
    for (const name of controllers.split(',')) if (name) paths.set(name.replace(/^name=/, ''), path);
  }
  return paths;
}

/** The directory of this process's cgroup in a mount: the mount's root may be a prefix of the path (cgroup namespaces, bind mounts). */
export function cgroupDir(mount: MountInfo, path: string): string {
  const relative = mount.root !== '/' && path.startsWith(mount.root) ? path.slice(mount.root.length) : path;
  return `${mount.mountPoint}${relative === '/' ? '' : relative}`;
}

// mountinfo escapes space, tab, newline and backslash as octal.
function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Reads both files the detectors need. */
export async function readSelfCgroupInfo(): Promise<{ mounts: MountInfo[]; paths: Map<string, string> }> {
  const [mountinfo, cgroup] = await Promise.all([readFile('/proc/self/mountinfo', 'utf8'), readFile('/proc/self/cgroup', 'utf8')]);
  return { mounts: parseMountInfo(mountinfo), paths: parseProcCgroup(cgroup) };
}

/** Polls until `done` or the deadline; cgroup state changes (freezing, emptying) are asynchronous. */
export async function waitFor(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return done();
}

/** Pids listed in a cgroup.procs file (empty when the cgroup is gone). */
export async function readPids(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/** SIGKILLs each pid, ignoring the ones already gone. */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ESRCH: exited meanwhile.
    }
  }
}

/**
 * Removes what workers that died left under `base` (`<base>/w-<pid>-<id>/exec-*`): the parents
 * of processes that no longer run, with their empty children. A live worker's cgroups, spares
 * included, are never touched: each driver instance has its own parent.
 */
export async function sweepStale(base: string): Promise<void> {
  const workers = await readdir(base, { withFileTypes: true }).catch(() => []);
  for (const worker of workers) {
    const pid = Number(/^w-(\d+)-/.exec(worker.name)?.[1]);
    if (!worker.isDirectory() || !pid || alive(pid)) continue;
    const dir = join(base, worker.name);
    const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(children.filter((c) => c.isDirectory()).map((c) => rmdir(join(dir, c.name)).catch(() => undefined)));
    await rmdir(dir).catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
