import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@looplane/shared';
import { capToHost, readHostCaps, type HostCaps } from '../host-caps';
import { resolveLimits, type LimitsReport, type SandboxLimits } from '../limits';
import { truncationMarker } from '../process/output-buffer';
import type { DriverProbe, ExecRequest, ExecResult, KillReason, SandboxDriver } from '../types';
import { finalKillReason, overDiskLimit } from '../workspace/disk-usage';
import { checkEnv, innerCwd, launchIdentity } from './exec-support';
import { inheritableFds } from './host-layout';
import { guestName, MicrovmGuest, readCapped, type GuestOutcome } from './microvm-guest';
import { buildGuestImage, type GuestImage } from './microvm-image';
import { MicrovmPool } from './microvm-pool';
import { probeMicrovm } from './microvm-probe';
import { microvmCallScript } from './microvm-script';
import { baseEnv } from './sandbox-env';

const MiB = 1024 * 1024;
/** How long a guest may take to confirm a killed call before it is shut down instead. */
const KILL_CONFIRM_MS = 5000;
/** Guest RAM beyond the call's memory limit: the guest kernel, the agent, the page cache of /usr. */
const GUEST_OVERHEAD_MIB = 192;

export interface MicrovmDriverOptions {
  /** A directory for the driver's own files (the initramfs, one directory per booted guest). */
  stateDir: string;
  qemuPath?: string;
  /** The guest kernel (default: the newest /boot/vmlinuz-*, with its modules from /lib/modules). */
  kernel?: string;
  /** A statically linked busybox for the guest's init (default /bin/busybox from busybox-static). */
  busybox?: string;
  /** `auto` (default) uses KVM when /dev/kvm is usable by session uids and a guest boots with it, TCG otherwise. */
  accel?: 'auto' | 'kvm' | 'tcg';
  /** How long a guest may take to boot (TCG is slow: seconds). */
  bootTimeoutMs?: number;
  /** How long an idle guest stays warm for its session's next call. */
  idleMs?: number;
  /** The most guests kept booted at once (idle ones beyond it are shut down, least recently used first). */
  maxGuests?: number;
  diskCheckIntervalMs?: number;
  /** The uid the probe runs as when the worker is root (default: nobody, 65534). */
  probeUid?: number;
  /**
   * `boot` (default) boots a guest and checks it; `prerequisites` only checks QEMU, the kernel, the
   * image and the accelerator: for a worker that lists the driver without offering it (Settings).
   */
  probeDepth?: 'boot' | 'prerequisites';
  hostCaps?: HostCaps;
}

interface Ready {
  caps: HostCaps;
  image: GuestImage;
  accel: 'kvm' | 'tcg';
  accelNote: string | null;
  qemuVersion: string;
  leakyFds: number[];
  tscKhz: number | null;
  /** A short private directory for the guests' agent sockets. */
  socketDir: string;
}

/**
 * A QEMU `microvm` per session: the command runs under the guest's own Linux kernel, so a kernel
 * exploit inside reaches only the guest, and the host sees one unprivileged QEMU process under
 * its own seccomp filter. The guest boots Debian's kernel with a minimal init (microvm-init.ts);
 * the workspace and the host's /usr (read-only) are shared over virtio-9p, nothing else of the
 * host. Guests stay warm per session between calls (microvm-pool.ts); a call that is killed
 * (wall time, cancel, output or disk limit) takes its guest with it, so nothing of it survives.
 */
export class MicrovmDriver implements SandboxDriver {
  readonly name = 'microvm';
  private ready: Promise<Ready> | null = null;
  private readonly pool: MicrovmPool;

  constructor(private readonly options: MicrovmDriverOptions) {
    this.pool = new MicrovmPool({ idleMs: options.idleMs ?? 120_000, maxGuests: options.maxGuests ?? 4 });
  }

  async probe(): Promise<DriverProbe> {
    const ready = await this.prepare().catch((error: Error) => error);
    if (ready instanceof Error) return { driver: 'microvm', available: false, reason: ready.message, limitsEnforced: limitsReport() };
    if (this.options.probeDepth === 'prerequisites') {
      const notes = [
        `QEMU ${ready.qemuVersion}, ${ready.accel === 'kvm' ? 'KVM' : 'TCG (emulated CPU, slow)'}`,
        `kernel ${ready.image.release}`,
        ready.accelNote,
        'no guest booted: this worker does not offer microvm',
      ];
      return { driver: 'microvm', available: true, reason: notes.filter(Boolean).join('; '), limitsEnforced: limitsReport() };
    }
    const problem = await probeMicrovm(this.options.stateDir, this.options.probeUid ?? 65534, ready.image.release, async (request) => {
      try {
        return await this.exec(request);
      } finally {
        await this.pool.retire(this.guestKey(request));
      }
    });
    const notes = [
      `QEMU ${ready.qemuVersion}, ${ready.accel === 'kvm' ? 'KVM' : 'TCG (emulated CPU, slow)'}`,
      `kernel ${ready.image.release}`,
      ready.accelNote,
    ];
    return { driver: 'microvm', available: problem === null, reason: problem ?? notes.filter(Boolean).join('; '), limitsEnforced: limitsReport() };
  }

  async exec(request: ExecRequest, options: { signal?: AbortSignal } = {}): Promise<ExecResult> {
    const started = performance.now();
    const ready = await this.prepare();
    const limits = capToHost(resolveLimits(request.limits), ready.caps);
    const identity = launchIdentity(request.workspace);
    const owner = { uid: identity.spawn.uid ?? process.getuid?.() ?? 0, gid: identity.spawn.gid ?? process.getgid?.() ?? 0 };
    const script = microvmCallScript(request.argv, { ...baseEnv(!!request.egress), ...checkEnv(request.env) }, innerCwd(request.cwd));
    if (options.signal?.aborted) return this.result({ status: null, killedBy: 'cancel', stdout: '', stderr: '', truncated: false, oomKilled: false }, started);
    const memoryMiB = Math.ceil(limits.memoryBytes / MiB) + GUEST_OVERHEAD_MIB;
    const key = this.guestKey(request);
    const boot = async (): Promise<MicrovmGuest> => {
      const name = guestName();
      const start = (accel: 'kvm' | 'tcg') =>
        MicrovmGuest.start({
          qemuPath: this.qemuPath,
          kernel: ready.image.kernel,
          initramfs: ready.image.initramfs,
          accel,
          memoryMiB,
          dir: join(this.options.stateDir, 'guests', name),
          socketPath: join(ready.socketDir, `${name}.sock`),
          workspacePath: request.workspace.path,
          owner,
          spawnAs: identity.spawn,
          ...(request.egress ? { egressSocket: request.egress.socketPath } : {}),
          leakyFds: ready.leakyFds,
          ...(ready.tscKhz ? { tscKhz: ready.tscKhz } : {}),
          bootTimeoutMs: this.options.bootTimeoutMs ?? 90_000,
        });
      if (ready.accel === 'tcg' || this.options.accel === 'kvm') return start(ready.accel);
      // KVM chosen by `auto`: a host whose KVM cannot run the guest (nested, missing MSRs) falls back to TCG for good.
      try {
        return await start('kvm');
      } catch (error) {
        ready.accel = 'tcg';
        ready.accelNote = `KVM could not boot a guest, using TCG (${(error as Error).message.slice(0, 200)})`;
        return start('tcg');
      }
    };
    const outcome = await this.pool.with(key, memoryMiB, boot, (guest) => this.runCall(guest, request, limits, script, options.signal));
    const killedBy = await finalKillReason(outcome.killedBy, request.workspace.path, limits);
    return this.result({ ...outcome, killedBy }, started);
  }

  /** Shuts every warm guest down (worker shutdown). */
  async close(): Promise<void> {
    await this.pool.close();
    const ready = await this.ready?.catch(() => null);
    this.ready = null;
    if (ready) await rm(ready.socketDir, { recursive: true, force: true });
  }

  /** Runs one call in a booted guest, held to wall time, cancellation and the output and disk watchdogs. */
  private async runCall(guest: MicrovmGuest, request: ExecRequest, limits: SandboxLimits, script: string, signal: AbortSignal | undefined) {
    let killedBy: KillReason | null = null;
    let stop: () => void = () => undefined;
    const stopped = new Promise<null>((resolve) => (stop = () => resolve(null)));
    const killWith = (reason: KillReason) => {
      killedBy ??= reason;
      stop();
    };
    const timers: NodeJS.Timeout[] = [setTimeout(() => killWith('timeout'), limits.wallTimeMs)];
    const onAbort = () => killWith('cancel');
    signal?.addEventListener('abort', onAbort, { once: true });
    const diskEvery = this.options.diskCheckIntervalMs ?? 1000;
    let lastDisk = performance.now();
    let busy = false;
    timers.push(
      setInterval(() => {
        if (busy || killedBy) return;
        busy = true;
        const checkDisk = performance.now() - lastDisk >= diskEvery;
        if (checkDisk) lastDisk = performance.now();
        void Promise.all([guest.outputBytes(), checkDisk ? overDiskLimit(request.workspace.path, limits) : false])
          .then(([bytes, overDisk]) => {
            if (bytes > limits.outputBytes) killWith('output-limit');
            else if (overDisk) killWith('disk-limit');
          })
          .catch(() => undefined)
          .finally(() => (busy = false));
      }, 100),
    );
    try {
      const running = guest.run({
        script,
        stdin: request.stdin ?? '',
        memoryBytes: limits.memoryBytes,
        pids: limits.pids,
        cpus: limits.cpus,
        tmpBytes: limits.tmpBytes,
        fileBytes: limits.workspaceBytes,
      });
      let done = await Promise.race([running, stopped]);
      if (killedBy && !done) done = await this.interrupt(guest, running);
      if (!done && !killedBy) throw new AppError('INTERNAL', 'the microVM stopped during the call (the guest kernel panicked or QEMU died)');
      const dir = guest.callDirectory();
      const stdout = await readCapped(join(dir, 'out'), limits.outputBytes);
      const stderr = await readCapped(join(dir, 'err'), limits.outputBytes - Math.min(stdout.bytes, limits.outputBytes));
      const truncated = stdout.bytes + stderr.bytes > limits.outputBytes;
      if (done) await rm(dir, { recursive: true, force: true });
      const value = {
        status: done && !killedBy ? done.status : null,
        killedBy: killedBy as KillReason | null,
        stdout: stdout.text + (truncated ? truncationMarker(limits.outputBytes) : ''),
        stderr: stderr.text,
        truncated,
        oomKilled: (done?.oomKills ?? 0) > 0,
      };
      // A killed call's cgroup is gone whole inside the guest, which stays warm; a guest that did not confirm it goes.
      return { value, keep: !!done };
    } finally {
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Asks the guest to kill the current call's cgroup and waits for its `done`. The kill is repeated
   * (a call whose process had not yet entered its cgroup is caught by the next one); a guest that
   * does not confirm within {@link KILL_CONFIRM_MS} is shut down by the caller.
   */
  private async interrupt(guest: MicrovmGuest, running: Promise<GuestOutcome | null>): Promise<GuestOutcome | null> {
    const deadline = performance.now() + KILL_CONFIRM_MS;
    while (performance.now() < deadline) {
      guest.interrupt();
      const done = await Promise.race([running, new Promise<'again'>((resolve) => setTimeout(() => resolve('again'), 250))]);
      if (done !== 'again') return done;
    }
    return null;
  }

  private result(
    outcome: { status: number | null; killedBy: KillReason | null; stdout: string; stderr: string; truncated: boolean; oomKilled: boolean },
    started: number,
  ): ExecResult {
    // The shell in the guest reports a command ended by signal N as 128 + N, as the other drivers' init does.
    return {
      exitCode: outcome.killedBy ? null : outcome.status,
      signal: outcome.killedBy ? 'SIGKILL' : null,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      truncated: outcome.truncated,
      killedBy: outcome.killedBy,
      oomKilled: outcome.oomKilled,
      durationMs: Math.round(performance.now() - started),
      limits: limitsReport(),
    };
  }

  /** A guest serves one session only: its workspace, its uid and its egress proxy. */
  private guestKey(request: ExecRequest): string {
    const identity = launchIdentity(request.workspace);
    return JSON.stringify([request.workspace.path, identity.spawn.uid ?? null, identity.spawn.gid ?? null, request.egress?.socketPath ?? null]);
  }

  private get qemuPath(): string {
    return this.options.qemuPath ?? 'qemu-system-x86_64';
  }

  private prepare(): Promise<Ready> {
    this.ready ??= (async () => {
      const qemuVersion = await commandVersion(this.qemuPath);
      await mkdir(join(this.options.stateDir, 'guests'), { recursive: true, mode: 0o711 });
      await rm(join(this.options.stateDir, 'guests'), { recursive: true, force: true });
      await mkdir(join(this.options.stateDir, 'guests'), { recursive: true, mode: 0o711 });
      const [caps, image, leakyFds, tscKhz] = await Promise.all([
        this.options.hostCaps ?? readHostCaps(),
        buildGuestImage({
          stateDir: this.options.stateDir,
          ...(this.options.kernel ? { kernel: this.options.kernel } : {}),
          ...(this.options.busybox ? { busybox: this.options.busybox } : {}),
        }),
        inheritableFds(),
        hostTscKhz(),
      ]);
      const { accel, note } = await chooseAccel(this.options.accel ?? 'auto');
      // Searchable, not listable: each guest's QEMU (its session's uid) reaches only its own socket by name.
      const socketDir = await mkdtemp(join(tmpdir(), 'looplane-vm-'));
      await chmod(socketDir, 0o711);
      return { caps, image, accel, accelNote: note, qemuVersion, leakyFds: leakyFds.filter((fd) => fd > 2), tscKhz, socketDir };
    })();
    this.ready.catch(() => (this.ready = null));
    return this.ready;
  }
}

/** What the microVM enforces, limit by limit: the call's limits are held by the guest's own kernel. */
function limitsReport(): LimitsReport {
  const guest = { enforced: true, by: 'cgroup-v2', note: "the call's cgroup inside the guest kernel; the guest's RAM bounds it too" } as const;
  return {
    wallTimeMs: { enforced: true, by: 'supervisor', note: "a guest's boot is not counted (it has its own limit)" },
    outputBytes: { enforced: true, by: 'watchdog', note: 'output files measured every 100 ms; text past the limit is dropped' },
    cpus: { ...guest, note: 'cpu.max inside the guest (one virtual CPU)' },
    memoryBytes: guest,
    pids: { ...guest, note: 'pids.max inside the guest' },
    workspaceBytes: { enforced: true, by: 'watchdog', note: 'measured every interval and at exit, plus RLIMIT_FSIZE per file inside the guest' },
    workspaceFiles: { enforced: true, by: 'watchdog', note: 'measured every interval and at exit' },
    tmpBytes: { enforced: true, by: 'tmpfs', note: "the guest's /tmp, fresh for every call" },
  };
}

/**
 * KVM where it can serve session uids (QEMU runs as them, without supplementary groups, so
 * /dev/kvm must be open to everyone), TCG otherwise. A host whose KVM cannot run the guest
 * (nested virtualisation without the needed MSRs) is found by the probe, which names the setting.
 */
async function chooseAccel(setting: 'auto' | 'kvm' | 'tcg'): Promise<{ accel: 'kvm' | 'tcg'; note: string | null }> {
  if (setting !== 'auto') return { accel: setting, note: null };
  const kvm = await stat('/dev/kvm').catch(() => null);
  if (!kvm) return { accel: 'tcg', note: 'no /dev/kvm on this host' };
  if ((kvm.mode & (constants.S_IROTH | constants.S_IWOTH)) !== (constants.S_IROTH | constants.S_IWOTH))
    return { accel: 'tcg', note: '/dev/kvm is not usable by session uids (make it mode 0666, or set LOOPLANE_MICROVM_ACCEL=tcg to silence this)' };
  return { accel: 'kvm', note: null };
}

/** A program's `--version` first line, or why it cannot be used. */
function commandVersion(path: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(path, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      if (error) return reject(new AppError('PRECONDITION_FAILED', `${path} not found: install qemu-system-x86 (and linux-image-amd64, busybox-static)`));
      resolve(/version (\S+)/.exec(stdout)?.[1] ?? stdout.split('\n')[0]!.trim());
    }),
  );
}

/** The host CPU's rate in kHz from /proc/cpuinfo (the TSC's on the machines this runs on), or null when it is not listed. */
async function hostTscKhz(): Promise<number | null> {
  const info = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(info)?.[1]);
  return Number.isFinite(mhz) && mhz > 0 ? Math.round(mhz * 1000) : null;
}
