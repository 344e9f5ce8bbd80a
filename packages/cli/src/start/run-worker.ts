import { mkdir } from 'node:fs/promises';
import type { CliEnv } from '../env';
import type { Printer } from '../printer';
import { ensureHostPackages } from './host-packages';
import { Lifecycle } from './lifecycle';
import { buildWorkerBundle, spawnWorker, stopWorker } from './worker-launch';

/** The one line `looplane worker` prints when it has nothing to connect to. */
export const WORKER_NEEDS_URLS =
  'looplane worker needs DATABASE_URL and REDIS_URL (the Postgres and Redis of the Looplane it joins); set both, or run `looplane start` for a single machine';

/**
 * `looplane worker`: one worker process for an extra host, against the DATABASE_URL and REDIS_URL
 * of an existing Looplane (no web, no embedded Postgres or Redis). Makes the sandbox usable like
 * `looplane start` does, bundles and runs the same worker in the foreground with its own log lines,
 * and hands it SIGINT/SIGTERM for its ordered shutdown (a second Ctrl-C kills it). Resolves to the
 * exit code: the worker's own after a requested stop (0 when it shut down cleanly), 1 otherwise.
 */
export async function runWorker(env: CliEnv, printer: Printer): Promise<number> {
  if (!env.DATABASE_URL || !env.REDIS_URL) {
    printer.error(WORKER_NEEDS_URLS);
    return 1;
  }
  const lifecycle = new Lifecycle(printer, 'the worker');
  const removeSignalHandlers = lifecycle.handleSignals();
  // The worker's exit code after a requested stop; undefined while it was not started yet.
  let workerCode: number | null | undefined;
  try {
    const { signal } = lifecycle;
    await ensureHostPackages({
      env: env.inherited,
      printer,
      signal,
      needRedis: false,
      sandboxDriver: env.inherited.LOOPLANE_SANDBOX_DRIVER,
      sandboxDrivers: (env.inherited.LOOPLANE_SANDBOX_DRIVERS ?? '').split(',').map((name) => name.trim()),
    });
    // Its local workspace cache lives here (unless LOOPLANE_WORKSPACE_ROOT says elsewhere).
    await mkdir(env.LOOPLANE_HOME, { recursive: true });
    await buildWorkerBundle({ env: env.inherited, signal });
    signal.throwIfAborted();
    const worker = await spawnWorker({
      env: {
        ...env.inherited,
        ...env.productSettings,
        NODE_ENV: 'production',
        DATABASE_URL: env.DATABASE_URL,
        REDIS_URL: env.REDIS_URL,
        LOOPLANE_HOME: env.LOOPLANE_HOME,
        LOG_LEVEL: env.LOG_LEVEL,
        // Its metrics listener, when configured, binds this (default 127.0.0.1).
        HOST: env.HOST,
        // Needed to open model endpoint keys: the same value as the web and the other workers.
        ...(env.LOOPLANE_ENCRYPTION_KEY ? { LOOPLANE_ENCRYPTION_KEY: env.LOOPLANE_ENCRYPTION_KEY } : {}),
      },
      printer,
      unprefixed: true,
    });
    lifecycle.manage(worker, () => stopWorker(worker));
    await lifecycle.stopped();
    await lifecycle.stopAll();
    workerCode = (await worker.exited).code;
  } catch (error) {
    if (!lifecycle.signal.aborted) lifecycle.fail(error instanceof Error ? error.message : String(error));
    await lifecycle.stopAll();
  }
  removeSignalHandlers();
  const reason = lifecycle.reason!;
  if (reason.kind === 'failure') {
    printer.error(reason.message);
    return 1;
  }
  // Stopped on request: 0 when nothing ran yet, else however the worker's shutdown went.
  return workerCode === undefined ? 0 : (workerCode ?? 1);
}
