import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

// From the production bundle (dist/*.mjs, see build.mjs) the entry is its sibling bundle, run by
// plain node; from source it is the TypeScript file, run through tsx.
const BUNDLED = import.meta.url.endsWith('.mjs');
const ENTRY = fileURLToPath(new URL(BUNDLED ? './node-process-main.mjs' : './node-process-main.ts', import.meta.url));

/** Environment overrides for the node processes (tests point them at their own database). */
let overrides: Record<string, string> = {};

/** Sets what node processes get on top of this process's environment. */
export function setNodeProcessEnv(env: Record<string, string>): void {
  overrides = env;
}

const children = new Map<string, ChildProcess>();

/**
 * A dedicated worker process per `process` node: the worker entry (`node-process-main.ts`) run
 * with the node's own queue prefix, so it takes only that node's sessions. Started on the first
 * job for the node and kept while this process lives (it stops when this process goes away:
 * it watches its IPC channel). It inherits this process's environment, so it reaches the same
 * Postgres, Redis and encryption key.
 */
export function ensureNodeProcess(prefix: string, logger: Logger): void {
  const running = children.get(prefix);
  if (running && running.exitCode === null && running.signalCode === null) return;
  const child = fork(ENTRY, [], {
    // Not this process's node flags (an inspector port, a profiler, a benchmark's probes).
    execArgv: BUNDLED ? [] : ['--import', 'tsx'],
    env: { ...process.env, ...overrides, QUEUE_PREFIX: prefix },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  child.on('exit', (code, signal) => {
    if (children.get(prefix) === child) children.delete(prefix);
    logger.info({ prefix, pid: child.pid, code, signal }, 'node process exited');
  });
  child.on('error', (error) => logger.warn({ err: error, prefix }, 'node process failed'));
  children.set(prefix, child);
  logger.info({ prefix, pid: child.pid }, 'node process started');
}

/** Stops every node process this process started (SIGTERM: they hand their sessions over). */
export async function stopNodeProcesses(): Promise<void> {
  const all = [...children.values()];
  children.clear();
  await Promise.all(
    all.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
