import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { AppError } from '@looplane/shared';
import { resolveLimits, unenforced, type LimitsReport } from '../limits';
import { killGroup, supervise } from '../process/supervise';
import type { DriverProbe, ExecRequest, ExecResult, SandboxDriver } from '../types';
import { finalKillReason } from '../workspace/disk-usage';
import { supervisedLimits } from './host-sandbox';
import { checkEnv, innerCwd } from './exec-support';
import { podmanArgs, type PodmanRuntime } from './podman-args';
import { preparePodmanRootfs, probePodmanLimits, resolvePodmanUser, type PodmanUser } from './podman-host';
import { baseEnv } from './sandbox-env';
import { childEnv } from '../process/child-env';

export interface PodmanDriverOptions {
  /** A directory for the driver's own files (the minimal root filesystem). */
  stateDir: string;
  /**
   * The account podman runs as when the worker is root: it needs /etc/subuid and /etc/subgid
   * ranges, and workspaces for this driver must belong to it (WorkspaceManager `owners: fixed`).
   * Ignored without root (podman then runs as the worker).
   */
  user?: string;
  podmanPath?: string;
  /**
   * The OCI runtime: `runc` (default), `crun` (fails on hybrid cgroup hosts, says so in the probe)
   * or gVisor's `runsc` (every system call served by gVisor's kernel).
   */
  runtime?: PodmanRuntime;
  /**
   * What to do when the host silently ignores podman's memory/pids/cpu limits (rootless on
   * cgroup v1): 'refuse' every execution (default), or run and report them as not enforced.
   */
  unenforcedLimits?: 'refuse' | 'report';
  diskCheckIntervalMs?: number;
  extraReadOnlyBinds?: string[];
}

interface Ready {
  user: PodmanUser;
  rootfs: string;
  /** What the probe saw the host apply inside a container. */
  kernelLimits: { memory: boolean; pids: boolean; cpu: boolean };
  note: string | null;
}

/**
 * Rootless podman with the runc runtime. Each execution is a fresh container from a minimal root
 * with the host /usr bound read-only. Whether the host applies memory/pids/cpu limits is checked by
 * running a container and reading its cgroup files, because podman itself only prints a warning.
 * On timeout, cancel or any abnormal end the container is removed with `podman rm -f -t 0`:
 * killing the podman client alone leaves it running.
 */
export class PodmanDriver implements SandboxDriver {
  readonly name = 'podman';
  private ready: Promise<Ready> | null = null;

  constructor(private readonly options: PodmanDriverOptions) {}

  async probe(): Promise<DriverProbe> {
    const ready = await this.prepare().catch((error: Error) => error);
    if (ready instanceof Error)
      return {
        driver: 'podman',
        available: false,
        reason: `${ready.message} (runtime ${this.options.runtime ?? 'runc'})${hybridHint(ready.message)}`,
        limitsEnforced: this.report(null),
      };
    const limitsEnforced = this.report(ready);
    const refused = this.refusal(ready);
    const runtime = `runtime ${this.options.runtime ?? 'runc'}`;
    return { driver: 'podman', available: refused === null, reason: refused ?? (ready.note ? `${runtime}; ${ready.note}` : runtime), limitsEnforced };
  }

  async exec(request: ExecRequest, options: { signal?: AbortSignal } = {}): Promise<ExecResult> {
    const ready = await this.prepare();
    const refused = this.refusal(ready);
    if (refused) throw new AppError('PRECONDITION_FAILED', refused);
    if (request.workspace.uid !== ready.user.uid)
      throw new AppError('PRECONDITION_FAILED', `podman runs as uid ${ready.user.uid}, but the workspace belongs to ${request.workspace.uid}`);
    const limits = resolveLimits(request.limits);
    const name = `looplane-${randomUUID()}`;
    const args = podmanArgs({
      name,
      rootfs: ready.rootfs,
      runtime: this.options.runtime ?? 'runc',
      argv: request.argv,
      workspacePath: request.workspace.path,
      cwd: innerCwd(request.cwd),
      env: { ...baseEnv(!!request.egress), ...checkEnv(request.env) },
      tmpBytes: limits.tmpBytes,
      limits: {
        ...(ready.kernelLimits.memory ? { memoryBytes: limits.memoryBytes } : {}),
        ...(ready.kernelLimits.pids ? { pids: limits.pids } : {}),
        ...(ready.kernelLimits.cpu ? { cpus: limits.cpus } : {}),
      },
      extraReadOnly: this.options.extraReadOnlyBinds ?? [],
      ...(request.egress ? { egressSocket: request.egress.socketPath } : {}),
    });
    const remove = () => this.podman(ready.user, ['rm', '-f', '-t', '0', '--ignore', name]).catch(() => undefined);
    const result = await supervise({
      command: this.podmanPath,
      args,
      ...ready.user.spawn,
      env: ready.user.env,
      cwd: '/',
      ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
      ...supervisedLimits(request.workspace.path, limits, { signal: options.signal, diskCheckIntervalMs: this.options.diskCheckIntervalMs }),
      kill: async (child) => {
        await remove();
        killGroup(child.pid);
      },
    });
    // 125 is podman's own failure; a signal means the client died: the container may still exist.
    if (result.killedBy || result.signal || (result.exitCode ?? 0) >= 125) await remove();
    if (result.exitCode === 125 && !result.killedBy)
      throw new AppError('INTERNAL', `podman could not run the container: ${result.stderr.trim().slice(0, 500)}`);
    const killedBy = await finalKillReason(result.killedBy, request.workspace.path, limits);
    return {
      ...result,
      stderr: result.stderr.replace(/^.*Resource limits are not supported and ignored.*\n/m, ''),
      killedBy,
      exitCode: result.killedBy ? null : result.exitCode,
      signal: result.killedBy ? 'SIGKILL' : result.signal,
      // 137 without a kill of ours is the kernel's OOM killer (only when the memory limit holds).
      oomKilled: ready.kernelLimits.memory && !result.killedBy && result.exitCode === 137,
      limits: this.report(ready),
    };
  }

  private refusal(ready: Ready): string | null {
    const missing = unenforced(this.report(ready));
    if (missing.length === 0 || this.options.unenforcedLimits === 'report') return null;
    return `podman on this host does not enforce ${missing.join(', ')} (${ready.note ?? 'see the probe'}); refusing to run (unenforcedLimits: 'refuse')`;
  }

  private report(ready: Ready | null): LimitsReport {
    const kernel = (on: boolean | undefined) =>
      on ? { enforced: true, by: 'cgroup-v2' as const } : { enforced: false, by: null, note: 'the host ignores this podman limit (rootless on cgroup v1)' };
    return {
      wallTimeMs: { enforced: true, by: 'supervisor', note: 'the container is removed with podman rm -f -t 0' },
      outputBytes: { enforced: true, by: 'supervisor' },
      cpus: kernel(ready?.kernelLimits.cpu),
      memoryBytes: kernel(ready?.kernelLimits.memory),
      pids: kernel(ready?.kernelLimits.pids),
      workspaceBytes: { enforced: true, by: 'watchdog', note: 'measured every interval and at exit; a fast writer can overshoot by one interval' },
      workspaceFiles: { enforced: true, by: 'watchdog' },
      tmpBytes: { enforced: true, by: 'tmpfs' },
    };
  }

  private get podmanPath(): string {
    return this.options.podmanPath ?? 'podman';
  }

  private podman(user: PodmanUser, args: string[]): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile(this.podmanPath, args, { ...user.spawn, env: childEnv(user.env), cwd: '/', timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new AppError('INTERNAL', `podman ${args[0]}: ${(stderr || error.message).trim().slice(0, 300)}`)) : resolve(stdout),
      ),
    );
  }

  private prepare(): Promise<Ready> {
    this.ready ??= (async () => {
      await this.podmanVersion();
      const user = await resolvePodmanUser(this.options.user);
      const rootfs = await preparePodmanRootfs(this.options.stateDir, user);
      const probed = await probePodmanLimits((args) => this.podman(user, args), this.options.runtime ?? 'runc', rootfs);
      return { user, rootfs, ...probed };
    })();
    this.ready.catch(() => (this.ready = null));
    return this.ready;
  }

  private async podmanVersion(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      execFile(this.podmanPath, ['--version'], { timeout: 10_000 }, (error) =>
        error ? reject(new AppError('PRECONDITION_FAILED', `podman not found (${this.podmanPath}): install the podman, runc and uidmap packages`)) : resolve(),
      ),
    );
  }
}

/**
 * crun refuses a hybrid host whose cgroup v2 hierarchy holds a controller (commonly hugetlb, the
 * one v1 does not mount): said with the way out, since moving it to a v1 hierarchy of its own is
 * a host change only its administrator should make.
 */
function hybridHint(message: string): string {
  return /cgroups in hybrid mode not supported/.test(message)
    ? '; crun runs on such a host once the cgroup v2 hierarchy holds no controllers: move them to v1 hierarchies (as root: `mkdir /sys/fs/cgroup/hugetlb && mount -t cgroup -o hugetlb cgroup /sys/fs/cgroup/hugetlb` for hugetlb)'
    : '';
}
