import type { ChildProcess } from 'node:child_process';
import { CgroupSpares, type ReadyCgroup } from '../cgroups/cgroup-spares';
import type { Cgroup, CgroupHost } from '../cgroups/cgroup';
import { detectCgroups } from '../cgroups/detect';
import { capToHost, readHostCaps, type HostCaps } from '../host-caps';
import { resolveLimits, type LimitsReport, type SandboxLimits } from '../limits';
import type { SupervisedResult, SuperviseOptions } from '../process/supervise';
import type { ExecResult } from '../types';
import { finalKillReason, overDiskLimit } from '../workspace/disk-usage';
import { inheritableFds, systemEntries, writeEtcFiles, type EtcFiles, type SystemEntry } from './host-layout';
import type { LauncherCgroup } from './launcher';

/**
 * What the drivers that launch a sandbox runtime as the workspace's uid (bwrap, gVisor) prepare
 * once per worker: the host's caps, the synthetic /etc files, the system paths, the descriptors
 * the launcher closes and the cgroups each execution is placed in before anything of it forks.
 */
export interface HostSandbox {
  caps: HostCaps;
  etc: EtcFiles;
  /** Descriptors inherited without close-on-exec, found once: Node opens its own with it. */
  leakyFds: number[];
  system: SystemEntry[];
  cgroups: CgroupHost | null;
  spares: CgroupSpares | null;
  cgroupReason: string | null;
}

export interface HostSandboxOptions {
  stateDir: string;
  hostCaps?: HostCaps;
  /** 'off' skips cgroups even where they work (the fallback limits are then reported). */
  cgroups?: 'auto' | 'off';
  /** Names the uid `/etc/passwd` gives the sandbox (bwrap maps the session uid onto 1000; gVisor's rootless sandbox runs as its own 0). */
  innerUid?: number;
}

export async function prepareHostSandbox(options: HostSandboxOptions): Promise<HostSandbox> {
  const caps = options.hostCaps ?? (await readHostCaps());
  const [etc, system, fds, cgroups] = await Promise.all([
    writeEtcFiles(options.stateDir, options.innerUid),
    systemEntries(),
    inheritableFds(),
    options.cgroups === 'off' ? Promise.resolve({ unavailable: 'cgroups turned off by configuration' }) : detectCgroups(caps),
  ]);
  const host = 'unavailable' in cgroups ? null : cgroups;
  await host?.sweep();
  const spares = host ? new CgroupSpares(host) : null;
  // The first execution finds a ready cgroup too (most use the default limits).
  spares?.prime(capToHost(resolveLimits(undefined), caps));
  return {
    caps,
    etc,
    system,
    // fds 3 and 4 of the launcher are the gate/status channel and a second channel; libuv puts them there over anything inherited.
    leakyFds: fds.filter((fd) => fd > 4),
    cgroups: host,
    spares,
    cgroupReason: host ? null : (cgroups as { unavailable: string }).unavailable,
  };
}

/**
 * What a launched sandbox enforces on this host, limit by limit. Without a memory cgroup bwrap
 * falls back to RLIMIT_AS per process; `memoryFallback` says what a driver has instead.
 */
export function hostLimitsReport(
  cgroups: CgroupHost | null,
  memoryFallback: LimitsReport['memoryBytes'] = {
    enforced: true,
    by: 'rlimit',
    note: 'address space per process (RLIMIT_AS), not the tree; runtimes that reserve large heaps may fail early',
  },
): LimitsReport {
  const by = cgroups ? (`cgroup-${cgroups.version}` as const) : null;
  // As root every session has its own uid (see WorkspaceManager); otherwise the worker's uid is shared.
  const root = process.getuid?.() === 0;
  return {
    wallTimeMs: { enforced: true, by: 'supervisor' },
    outputBytes: { enforced: true, by: 'supervisor' },
    cpus: cgroups?.controllers.cpu ? { enforced: true, by } : { enforced: false, by: null, note: 'needs a cpu cgroup' },
    memoryBytes: cgroups?.controllers.memory ? { enforced: true, by } : memoryFallback,
    pids: cgroups?.controllers.pids
      ? { enforced: true, by }
      : root
        ? { enforced: true, by: 'rlimit', note: 'RLIMIT_NPROC on the session uid' }
        : { enforced: false, by: null, note: 'no pids cgroup, and the uid is shared with the worker' },
    workspaceBytes: {
      enforced: true,
      by: 'watchdog',
      note: 'measured every interval and at exit, plus RLIMIT_FSIZE per file; a fast writer can overshoot by one interval',
    },
    workspaceFiles: { enforced: true, by: 'watchdog', note: 'measured every interval and at exit' },
    tmpBytes: { enforced: true, by: 'tmpfs' },
  } satisfies Record<keyof SandboxLimits, LimitsReport[keyof SandboxLimits]>;
}

/** How a launcher enters its call's cgroup: moving itself in (v1), waiting at the gate (v2), or none. */
export function launcherEntry(cgroup: ReadyCgroup | null): LauncherCgroup {
  if (!cgroup) return { kind: 'none' };
  return cgroup.attachFiles ? { kind: 'attach', files: cgroup.attachFiles } : { kind: 'gate' };
}

/** A gated launcher (fd 3) is placed in its cgroup by the worker, then let go: nothing of it forks outside. */
export async function openGate(child: ChildProcess, entry: LauncherCgroup, group: Cgroup | null): Promise<void> {
  if (entry.kind !== 'gate' || !group || !child.pid) return;
  await group.add(child.pid);
  (child.stdio[3] as NodeJS.WritableStream | null)?.write('go\n');
}

/** What every supervised sandbox shares: its wall time, output cap, cancellation and the workspace disk watchdog. */
export function supervisedLimits(
  workspacePath: string,
  limits: SandboxLimits,
  options: { signal?: AbortSignal | undefined; diskCheckIntervalMs?: number | undefined },
): Pick<SuperviseOptions, 'wallTimeMs' | 'outputBytes' | 'signal' | 'watchdog'> {
  return {
    wallTimeMs: limits.wallTimeMs,
    outputBytes: limits.outputBytes,
    ...(options.signal ? { signal: options.signal } : {}),
    watchdog: {
      intervalMs: options.diskCheckIntervalMs ?? 1000,
      check: async () => ((await overDiskLimit(workspacePath, limits)) ? 'disk-limit' : null),
    },
  };
}

/**
 * An execution's result once its process tree is gone: the final kill reason (a disk limit seen
 * at exit included) and whether the cgroup's OOM killer struck, read together; a killed
 * execution has no exit code, only SIGKILL.
 */
export async function settledResult(
  result: SupervisedResult,
  workspacePath: string,
  limits: SandboxLimits,
  group: Cgroup | null,
  report: LimitsReport,
): Promise<ExecResult> {
  // Independent reads after the exit: one round trip instead of two.
  const [killedBy, oomKilled] = await Promise.all([finalKillReason(result.killedBy, workspacePath, limits), group ? group.oomKilled() : false]);
  return {
    ...result,
    killedBy,
    exitCode: result.killedBy ? null : result.exitCode,
    signal: result.killedBy ? 'SIGKILL' : result.signal,
    oomKilled,
    limits: report,
  };
}
