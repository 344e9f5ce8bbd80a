import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chown, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '@looplane/shared';
import type { Cgroup } from '../cgroups/cgroup';
import { capToHost, type HostCaps } from '../host-caps';
import { resolveLimits, type LimitsReport } from '../limits';
import { childEnv } from '../process/child-env';
import { killGroup, supervise } from '../process/supervise';
import type { DriverProbe, ExecRequest, ExecResult, SandboxDriver } from '../types';
import { checkEnv, innerCwd, launchIdentity } from './exec-support';
import { GVISOR_ETC_BINDS, GVISOR_FILE_MOUNT_POINTS, gvisorSpec } from './gvisor-spec';
import { minimalRootfs } from './host-layout';
import { hostLimitsReport, launcherEntry, openGate, prepareHostSandbox, settledResult, supervisedLimits, type HostSandbox } from './host-sandbox';
import { launcherScript } from './launcher';
import { baseEnv } from './sandbox-env';
import { probeGvisor } from './gvisor-probe';

export interface GvisorDriverOptions {
  /** A directory for the driver's own files (the root skeleton, /etc files, per-execution bundles). */
  stateDir: string;
  runscPath?: string;
  /** runsc's platform: `systrap` (default, no KVM needed), `ptrace`, or `kvm` where /dev/kvm is usable. */
  platform?: 'systrap' | 'ptrace' | 'kvm';
  extraReadOnlyBinds?: string[];
  diskCheckIntervalMs?: number;
  cgroups?: 'auto' | 'off';
  /** The uid the probe runs as when the worker is root (default: nobody, 65534). */
  probeUid?: number;
  hostCaps?: HostCaps;
}

interface Ready extends HostSandbox {
  rootfs: string;
  version: string;
}

/** runsc's message for a program it cannot find on PATH (or at the path given). */
const MISSING_PROGRAM = /error finding executable "([^"]*)"/;
/** runsc's message for a program it found but cannot execute (not executable, a directory, not a binary). */
const UNLOADABLE_PROGRAM = /creating process: failed to load (.+?): ([^:\n]+)$/m;

/** What runsc prints when it could not set the sandbox up (the command never ran). */
const SETUP_FAILURE = /^(running container|creating container|starting container|reading spec|loading container|error)\b/im;

/**
 * gVisor: every system call of the command is served by runsc's user-space kernel (the Sentry),
 * which itself runs in namespaces under a seccomp filter of a few dozen host calls. Launched
 * rootless as the workspace's unprivileged uid, like bwrap, through the same launcher: it enters
 * the execution's cgroup (so the limits hold for the Sentry, the Gofer and the command together)
 * and closes inherited descriptors before runsc starts. One OCI bundle per execution
 * (gvisor-spec.ts), removed afterwards.
 */
export class GvisorDriver implements SandboxDriver {
  readonly name = 'gvisor';
  private ready: Promise<Ready> | null = null;

  constructor(private readonly options: GvisorDriverOptions) {}

  async probe(): Promise<DriverProbe> {
    const ready = await this.prepare().catch((error: Error) => error);
    if (ready instanceof Error) return { driver: 'gvisor', available: false, reason: ready.message, limitsEnforced: this.limitsReport(null) };
    const problem = await probeGvisor(this.options.stateDir, this.options.probeUid ?? 65534, (request) => this.exec(request));
    const notes = [
      `runsc ${ready.version}, platform ${this.platform}`,
      ready.cgroupReason && `no cgroups (${ready.cgroupReason}): memory is an address-space rlimit inside gVisor, CPU is not limited`,
    ].filter(Boolean);
    return { driver: 'gvisor', available: problem === null, reason: problem ?? notes.join('; '), limitsEnforced: this.limitsReport(ready) };
  }

  async exec(request: ExecRequest, options: { signal?: AbortSignal } = {}): Promise<ExecResult> {
    const ready = await this.prepare();
    const limits = capToHost(resolveLimits(request.limits), ready.caps);
    const identity = launchIdentity(request.workspace);
    const report = this.limitsReport(ready);
    const id = `looplane-${randomUUID()}`;
    const bundle = join(this.options.stateDir, 'exec', id);
    const owner = identity.spawn.uid !== undefined && identity.spawn.gid !== undefined ? { uid: identity.spawn.uid, gid: identity.spawn.gid } : undefined;
    await mkdir(join(bundle, 'state'), { recursive: true, mode: 0o700 });
    if (owner) {
      await chown(bundle, owner.uid, owner.gid);
      await chown(join(bundle, 'state'), owner.uid, owner.gid);
    }
    const spec = gvisorSpec({
      argv: request.argv,
      rootfs: ready.rootfs,
      workspacePath: request.workspace.path,
      cwd: innerCwd(request.cwd),
      env: { ...baseEnv(!!request.egress), ...checkEnv(request.env) },
      tmpBytes: limits.tmpBytes,
      etc: ready.etc,
      extraReadOnly: this.options.extraReadOnlyBinds ?? [],
      rlimits: {
        fileBytes: limits.workspaceBytes,
        processes: limits.pids,
        ...(report.memoryBytes.by === 'rlimit' ? { addressSpaceBytes: limits.memoryBytes } : {}),
      },
      ...(request.egress ? { egressSocket: request.egress.socketPath } : {}),
    });
    await writeFile(join(bundle, 'config.json'), JSON.stringify(spec), { mode: 0o600 });
    if (owner) await chown(join(bundle, 'config.json'), owner.uid, owner.gid);
    const runsc = [
      this.runscPath,
      '--rootless',
      '--network=none',
      '--ignore-cgroups',
      '--oci-seccomp',
      `--platform=${this.platform}`,
      '--root',
      join(bundle, 'state'),
      ...(request.egress ? ['--host-uds=open'] : []),
      'run',
      '--bundle',
      bundle,
      id,
    ];
    // The host's pids cgroup also counts the Sentry's threads and one stub process per address space inside:
    // the command's own limit is RLIMIT_NPROC inside gVisor, the cgroup is the backstop.
    const cgroup = ready.spares ? await ready.spares.acquire({ ...limits, pids: hostPids(limits.pids) }, owner) : null;
    const group = cgroup?.group ?? null;
    try {
      const entry = launcherEntry(cgroup);
      // No host rlimit: RLIMIT_FSIZE would kill the Sentry when its memory file grows, RLIMIT_AS would break its Go
      // heap, RLIMIT_NPROC counts its threads. The per-file and address-space limits are set inside gVisor instead.
      const launcher = launcherScript(ready.leakyFds, {}, entry);
      const result = await supervise({
        command: launcher.shell,
        args: ['-c', launcher.script, 'looplane-launch', ...runsc],
        ...identity.spawn,
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: bundle },
        cwd: '/',
        ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
        extraFds: 1,
        onSpawn: (child) => openGate(child, entry, group),
        ...supervisedLimits(request.workspace.path, limits, { signal: options.signal, diskCheckIntervalMs: this.options.diskCheckIntervalMs }),
        kill: (child) => this.killTree(child, group, bundle, id, identity.spawn),
      });
      if (group) await group.killAll();
      else await this.deleteContainer(bundle, id, identity.spawn);
      // runsc looks the program up itself: a missing one is the command's failure (127, as a shell says), not the sandbox's.
      const failedStart = !result.killedBy && result.exitCode === 128;
      const missing = failedStart ? MISSING_PROGRAM.exec(result.stderr) : null;
      if (missing) return { ...result, exitCode: 127, stderr: `${missing[1]}: not found\n`, oomKilled: false, limits: report };
      const unloadable = failedStart ? UNLOADABLE_PROGRAM.exec(result.stderr) : null;
      if (unloadable) return { ...result, exitCode: 126, stderr: `${unloadable[1]}: ${unloadable[2]}\n`, oomKilled: false, limits: report };
      if (failedStart && SETUP_FAILURE.test(result.stderr))
        throw new AppError('INTERNAL', `runsc could not set up the sandbox: ${result.stderr.trim().slice(0, 500)}`);
      // Awaited here: the finally below hands the cgroup back, and its OOM counter is read first.
      return await settledResult(result, request.workspace.path, limits, group, report);
    } finally {
      if (cgroup) ready.spares?.release(cgroup);
      await rm(bundle, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Removes the spare cgroups (worker shutdown). */
  async close(): Promise<void> {
    const ready = await this.ready?.catch(() => null);
    await ready?.spares?.close();
  }

  /**
   * runsc starts the Sentry and the Gofer in sessions of their own: killing the launcher's group
   * does not reach them. The cgroup holds all of them; without one, `runsc kill` and a forced
   * `runsc delete` end the sandbox.
   */
  private async killTree(child: ChildProcess, group: Cgroup | null, bundle: string, id: string, spawn: { uid?: number; gid?: number }): Promise<void> {
    if (group) await group.killAll();
    else await this.deleteContainer(bundle, id, spawn);
    killGroup(child.pid);
  }

  private deleteContainer(bundle: string, id: string, spawn: { uid?: number; gid?: number }): Promise<void> {
    return new Promise((resolve) =>
      execFile(
        this.runscPath,
        ['--rootless', '--root', join(bundle, 'state'), 'delete', '--force', id],
        { ...spawn, env: childEnv({ PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: bundle }), cwd: '/', timeout: 10_000 },
        () => resolve(),
      ),
    );
  }

  private get runscPath(): string {
    return this.options.runscPath ?? 'runsc';
  }

  private get platform(): string {
    return this.options.platform ?? 'systrap';
  }

  private prepare(): Promise<Ready> {
    this.ready ??= (async () => {
      const version = await runscVersion(this.runscPath);
      const host = await prepareHostSandbox({ ...this.options, innerUid: 0 });
      const rootfs = join(this.options.stateDir, 'rootfs');
      await minimalRootfs(rootfs, GVISOR_FILE_MOUNT_POINTS);
      for (const path of [...GVISOR_ETC_BINDS, ...(this.options.extraReadOnlyBinds ?? [])]) {
        const stat = await lstat(path).catch(() => null);
        if (!stat) continue;
        if (stat.isDirectory()) await mkdir(join(rootfs, path), { recursive: true, mode: 0o755 });
        else await minimalRootfs(rootfs, [path.slice(1)]);
      }
      await mkdir(join(this.options.stateDir, 'exec'), { recursive: true, mode: 0o711 });
      return { ...host, rootfs, version };
    })();
    this.ready.catch(() => (this.ready = null));
    return this.ready;
  }

  private limitsReport(ready: HostSandbox | null): LimitsReport {
    return hostLimitsReport(ready?.cgroups ?? null, {
      enforced: true,
      by: 'rlimit',
      note: "address space per process inside gVisor's kernel (RLIMIT_AS), not the tree",
    });
  }
}

/** The host pids a sandbox with `pids` tasks inside may use: a stub per task plus the Sentry's and Gofer's threads. */
export function hostPids(pids: number): number {
  return 2 * pids + 96;
}

/** `runsc --version`'s first line, or why runsc cannot be used. */
function runscVersion(runscPath: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(runscPath, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      if (error) return reject(new AppError('PRECONDITION_FAILED', `runsc not found (${runscPath}): install the runsc package (gVisor)`));
      const version = /runsc version (\S+)/.exec(stdout)?.[1] ?? stdout.split('\n')[0]!.trim();
      // Builds before 2023 refuse statx with AT_NO_AUTOMOUNT, which coreutils' ls and stat pass.
      const date = /(\d{8})/.exec(version)?.[1];
      if (date && date < '20230101')
        return reject(
          new AppError(
            'PRECONDITION_FAILED',
            `runsc ${version} is too old (ls and stat fail inside it): install runsc from bookworm-backports or newer (apt-get install -t bookworm-backports runsc)`,
          ),
        );
      resolve(version);
    }),
  );
}
