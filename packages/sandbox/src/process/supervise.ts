import { spawn, type ChildProcess } from 'node:child_process';
import { AppError } from '@looplane/shared';
import type { KillReason } from '../types';
import { OutputBuffer, truncationMarker } from './output-buffer';
import { childEnv } from './child-env';

export interface SuperviseOptions {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
  /** The complete environment of the spawned process: nothing is inherited from the worker. */
  env: Record<string, string>;
  cwd?: string;
  stdin?: string;
  /** Extra socket pairs after stdio (fd 3, 4, ...), e.g. a start gate or a status channel. */
  extraFds?: number;
  /** Runs once the process exists and before it is released (cgroup placement, gate). */
  onSpawn?: (child: ChildProcess) => Promise<void>;
  wallTimeMs: number;
  outputBytes: number;
  signal?: AbortSignal;
  /** Periodic check (e.g. workspace disk use); a returned reason kills the tree. */
  watchdog?: { intervalMs: number; check: () => Promise<KillReason | null> };
  /** Kills the whole process tree; must not resolve while any of it can still run. */
  kill: (child: ChildProcess) => Promise<void>;
}

export interface SupervisedResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  killedBy: KillReason | null;
  durationMs: number;
}

/** How long to wait for the pipes to close after the process exited (a leaked writer is killed by then). */
const CLOSE_GRACE_MS = 2000;

/**
 * Spawns a process in its own process group and holds it to wall time, output size, an abort
 * signal and an optional watchdog, killing the whole tree through `kill` when one is hit.
 * Resolves after the process exited; rejects only when it could not be spawned or set up.
 */
export async function supervise(options: SuperviseOptions): Promise<SupervisedResult> {
  const started = performance.now();
  if (options.signal?.aborted) {
    return { exitCode: null, signal: null, stdout: '', stderr: '', truncated: false, killedBy: 'cancel', durationMs: 0 };
  }
  const stdio = ['pipe', 'pipe', 'pipe', ...Array.from({ length: options.extraFds ?? 0 }, () => 'pipe' as const)] as const;
  const child = spawn(options.command, options.args, {
    env: childEnv(options.env),
    stdio: [...stdio],
    detached: true, // own process group, so one kill(-pgid) reaches every helper
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });

  let killedBy: KillReason | null = null;
  let killing: Promise<void> | null = null;
  const killWith = (reason: KillReason) => {
    if (killedBy) return;
    killedBy = reason;
    killing = options.kill(child).catch(() => undefined);
  };
  const output = new OutputBuffer(options.outputBytes, () => killWith('output-limit'));
  child.stdout?.on('data', (chunk: Buffer) => output.push('stdout', chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push('stderr', chunk));
  // Every stdio pipe is a socket pair: a closed stdin raises EPIPE, and a peer that dies during
  // setup can reset an output or channel pipe (ECONNRESET). Neither is a failure of the call —
  // the exit status says what happened — and an unhandled stream error would crash the worker.
  for (const stream of child.stdio) (stream as NodeJS.EventEmitter | null)?.on('error', () => undefined);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', (error) => reject(new AppError('INTERNAL', `could not start ${options.command}: ${error.message}`, { cause: error })));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const timers: NodeJS.Timeout[] = [];
  const onAbort = () => killWith('cancel');
  if (child.pid === undefined) await exited; // spawn failed: rejects with the reason
  try {
    if (options.onSpawn) await Promise.race([options.onSpawn(child), exited.then(() => undefined)]);
  } catch (error) {
    await options.kill(child).catch(() => undefined);
    await exited.catch(() => undefined);
    throw error;
  }
  child.stdin?.end(options.stdin ?? '');
  timers.push(setTimeout(() => killWith('timeout'), Math.max(0, options.wallTimeMs - (performance.now() - started))));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort(); // aborted while the process was being set up
  if (options.watchdog) {
    const { intervalMs, check } = options.watchdog;
    let busy = false;
    timers.push(
      setInterval(() => {
        if (busy || killedBy) return;
        busy = true;
        check()
          .then((reason) => reason && killWith(reason))
          .catch(() => undefined)
          .finally(() => (busy = false));
      }, intervalMs),
    );
  }

  try {
    const { code, signal } = await exited;
    await Promise.race([closed, new Promise((resolve) => timers.push(setTimeout(resolve, CLOSE_GRACE_MS)))]);
    if (killing) await killing;
    const marker = output.truncated ? truncationMarker(options.outputBytes) : '';
    return {
      exitCode: code,
      signal,
      stdout: output.text('stdout') + marker,
      stderr: output.text('stderr'),
      truncated: output.truncated,
      killedBy,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    for (const stream of child.stdio) stream?.destroy();
  }
}

/** SIGKILLs a process group, ignoring one that is already gone. */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group has already exited.
  }
}
