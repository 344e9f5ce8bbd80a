import { join } from 'node:path';
import type { Printer } from '../printer';
import { spawnChild, type ManagedChild } from './children';
import { paths } from './paths';
import { runCommand } from './run-command';

/** The worker's own shutdown has a 10 s hard timeout; SIGKILL only if it is stuck beyond that. */
const WORKER_STOP_GRACE_MS = 15_000;

/** The bundled worker (`apps/worker/dist/main.mjs`), run by `looplane start` and `looplane worker`. */
const workerBundle = join(paths.workerDir, 'dist', 'main.mjs');

/** Bundles the worker into plain JavaScript from the current sources (apps/worker/build.mjs, under a second). */
export async function buildWorkerBundle(options: { env: Record<string, string>; signal: AbortSignal }): Promise<void> {
  await runCommand({
    name: 'worker build',
    command: process.execPath,
    args: [join(paths.workerDir, 'build.mjs')],
    cwd: paths.workerDir,
    env: options.env,
    signal: options.signal,
  });
}

/**
 * Starts one bundled worker process with exactly `env` (it validates its own settings and stops
 * with one line naming a bad one). Its output goes to `printer`, as `worker | ...` or verbatim.
 */
export function spawnWorker(options: { env: Record<string, string>; printer: Printer; unprefixed?: boolean }): Promise<ManagedChild> {
  return spawnChild({
    name: 'worker',
    command: process.execPath,
    args: [workerBundle],
    cwd: paths.workerDir,
    env: options.env,
    printer: options.printer,
    ...(options.unprefixed ? { unprefixed: true } : {}),
  });
}

/** Stops a worker: SIGTERM for its ordered shutdown, SIGKILL after {@link WORKER_STOP_GRACE_MS}. */
export function stopWorker(worker: ManagedChild): Promise<void> {
  return worker.stop('SIGTERM', WORKER_STOP_GRACE_MS);
}
