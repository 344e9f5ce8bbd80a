import type { ChildProcess } from 'node:child_process';
import { AppError } from '@looplane/shared';
import type { Cgroup, CgroupHost } from '../cgroups/cgroup';
import { capToHost, type HostCaps } from '../host-caps';
import { resolveLimits, type LimitsReport } from '../limits';
import { killGroup, supervise } from '../process/supervise';
import type { DriverProbe, ExecRequest, ExecResult, SandboxDriver } from '../types';
import { bwrapArgs } from './bwrap-args';
import { baseEnv } from './sandbox-env';
import { probeBwrap } from './bwrap-probe';
import { hostLimitsReport, launcherEntry, openGate, prepareHostSandbox, settledResult, supervisedLimits, type HostSandbox } from './host-sandbox';
import { launcherScript } from './launcher';
import { seccompProgram } from '../seccomp/seccomp-filter';
import { checkEnv, exitedWithin, innerCwd, launchIdentity, parentOf, StatusChannel } from './exec-support';

export interface BwrapDriverOptions {
  /** A directory for the driver's own files (synthetic /etc files, the probe's scratch dir). */
  stateDir: string;
  bwrapPath?: string;
  /** Extra host paths bound read-only at the same place (a toolchain outside /usr). */
  extraReadOnlyBinds?: string[];
  /** How often the workspace size is measured while a command runs. */
  diskCheckIntervalMs?: number;
  /** 'off' skips cgroups even where they work (the fallback limits are then reported). */
  cgroups?: 'auto' | 'off';
  /** The uid the capability probe runs as when the worker is root (default: nobody, 65534). */
  probeUid?: number;
  /** The most one execution may hold (default: read from this host, see `readHostCaps`); also the cgroup parent's limits. */
  hostCaps?: HostCaps;
}

interface Ready extends HostSandbox {
  seccomp: Buffer | null;
}

/**
 * The default driver: bubblewrap launched with the workspace's unprivileged uid (bwrap started by
 * root would map the sandbox onto host root). See bwrap-args.ts for the isolation and
 * `limitsReport` for which limits hold on this host.
 */
export class BwrapDriver implements SandboxDriver {
  readonly name = 'bwrap';
  private ready: Promise<Ready> | null = null;

  constructor(private readonly options: BwrapDriverOptions) {}

  async probe(): Promise<DriverProbe> {
    const ready = await this.prepare().catch((error: Error) => error);
    if (ready instanceof Error) return { driver: 'bwrap', available: false, reason: ready.message, limitsEnforced: this.limitsReport(null) };
    const problem = await probeBwrap(this.bwrapPath, this.options.stateDir, this.options.probeUid ?? 65534, (req) => this.exec(req));
    const degraded = [ready.cgroupReason, ready.seccomp ? null : `no seccomp filter for ${process.arch}: namespaces and dropped capabilities only`].filter(
      Boolean,
    );
    return {
      driver: 'bwrap',
      available: problem === null,
      reason: problem ?? (degraded.join('; ') || null),
      limitsEnforced: this.limitsReport(ready.cgroups),
    };
  }

  async exec(request: ExecRequest, options: { signal?: AbortSignal } = {}): Promise<ExecResult> {
    const ready = await this.prepare();
    // Whoever asked (a tool call, an MCP listing), no execution holds more than the host can give.
    const limits = capToHost(resolveLimits(request.limits), ready.caps);
    const identity = launchIdentity(request.workspace);
    const env = { ...baseEnv(!!request.egress), ...checkEnv(request.env) };
    const cwd = innerCwd(request.cwd);
    const report = this.limitsReport(ready.cgroups);
    const rlimits = {
      fileBytes: limits.workspaceBytes,
      // RLIMIT_NPROC counts every process of the uid: a limit only because the uid is this session's own.
      ...(report.pids.by === 'rlimit' ? { processes: limits.pids } : {}),
      ...(report.memoryBytes.by === 'rlimit' ? { addressSpaceBytes: limits.memoryBytes } : {}),
    };
    const status = new StatusChannel();
    const args = bwrapArgs({
      argv: request.argv,
      workspacePath: request.workspace.path,
      cwd,
      env,
      tmpBytes: limits.tmpBytes,
      system: ready.system,
      etc: ready.etc,
      extraReadOnly: this.options.extraReadOnlyBinds ?? [],
      statusFd: 3,
      ...(ready.seccomp ? { seccompFd: 4 } : {}),
      ...(request.egress ? { egressSocket: request.egress.socketPath } : {}),
    });
    // Acquired last, right before the try that always releases it.
    const owner = identity.spawn.uid !== undefined && identity.spawn.gid !== undefined ? { uid: identity.spawn.uid, gid: identity.spawn.gid } : undefined;
    const cgroup = ready.spares ? await ready.spares.acquire(limits, owner) : null;
    const group = cgroup?.group ?? null;
    try {
      const entry = launcherEntry(cgroup);
      const launcher = launcherScript(ready.leakyFds, rlimits, entry);
      const result = await supervise({
        command: launcher.shell,
        args: ['-c', launcher.script, 'looplane-launch', this.bwrapPath, ...args],
        ...identity.spawn,
        // bwrap itself gets a bare environment and cwd: its PID-1 child's /proc/1/environ is visible inside.
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
        cwd: '/',
        ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
        extraFds: 2,
        onSpawn: async (child) => {
          status.attach(child);
          // bwrap reads the filter to EOF (so the end matters); without a filter fd 4 is unused.
          const filter = child.stdio[4] as NodeJS.WritableStream | null;
          if (ready.seccomp) filter?.end(ready.seccomp);
          else filter?.end();
          await openGate(child, entry, group);
        },
        ...supervisedLimits(request.workspace.path, limits, { signal: options.signal, diskCheckIntervalMs: this.options.diskCheckIntervalMs }),
        kill: (child) => this.killTree(child, status, group),
      });
      // Whatever the command left behind (nothing, with the PID namespace) goes with it.
      if (group) await group.killAll();
      if (!status.setupFinished && !result.killedBy) {
        throw new AppError('INTERNAL', `bwrap could not set up the sandbox: ${result.stderr.trim().slice(0, 500) || `exit ${result.exitCode}`}`);
      }
      // Awaited here: the finally below hands the cgroup back, and its OOM counter is read first.
      return await settledResult(result, request.workspace.path, limits, group, report);
    } finally {
      if (cgroup) ready.spares?.release(cgroup);
    }
  }

  /**
   * Kills the sandbox's PID 1 first: the kernel then kills everything in the PID namespace (a fork
   * bomb included) and bwrap reaps it and exits, so nothing is orphaned to the host's init. Only
   * if that does not end bwrap (or the sandbox never started) is bwrap's process group killed,
   * then anything left in the cgroup.
   */
  private async killTree(child: ChildProcess, status: StatusChannel, group: Cgroup | null): Promise<void> {
    // Killed between clone and its report, bwrap would leave the new PID 1 to the host's init.
    await status.waitForChildPid(1000);
    if (status.childPid !== null && (await parentOf(status.childPid)) === child.pid) {
      try {
        process.kill(status.childPid, 'SIGKILL');
      } catch {
        // Already gone: bwrap is exiting on its own.
      }
      if (await exitedWithin(child, 2000)) return;
    }
    killGroup(child.pid);
    if (group) await group.killAll();
  }

  /**
   * Removes the spare cgroups (worker shutdown). Optional: a worker that dies leaves them to the
   * next one's sweep. Executions after close make their cgroup on the spot.
   */
  async close(): Promise<void> {
    const ready = await this.ready?.catch(() => null);
    await ready?.spares?.close();
  }

  private get bwrapPath(): string {
    return this.options.bwrapPath ?? 'bwrap';
  }

  private prepare(): Promise<Ready> {
    this.ready ??= prepareHostSandbox(this.options).then((host) => ({
      ...host,
      seccomp: seccompProgram(),
      cgroupReason: host.cgroupReason && `no cgroups (${host.cgroupReason}): memory falls back to an address-space rlimit, CPU is not limited`,
    }));
    this.ready.catch(() => (this.ready = null));
    return this.ready;
  }

  /** What this driver enforces on this host, limit by limit. */
  private limitsReport(cgroups: CgroupHost | null): LimitsReport {
    return hostLimitsReport(cgroups);
  }
}
