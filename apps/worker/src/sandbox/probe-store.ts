import { markSandboxProbeStopped, setSandboxProbeDrivers, touchSandboxProbe, upsertSandboxProbe, type PgPool } from '@looplane/db';
import type { DriverName, DriverProbe } from '@looplane/sandbox';
import type { Logger } from 'pino';

/** What a worker records about its sandbox at start: the Settings page reads it (`system.sandbox`). */
export interface SandboxProbeRecord {
  workerId: string;
  hostname: string;
  pid: number;
  /** Loops it runs at once (WORKER_CONCURRENCY): the overview's load is its running sessions against this. */
  concurrency: number;
  selectedDriver: DriverName;
  available: boolean;
  reason: string | null;
  /** Every probed driver; `offered` marks the ones this worker runs calls on (its default and LOOPLANE_SANDBOX_DRIVERS). */
  drivers: OfferedProbe[];
}

/** A driver's probe as recorded: whether the worker offers it besides what it can do. */
type OfferedProbe = DriverProbe & { offered: boolean };

export interface ProbeStore {
  /** Replaces the recorded driver probes (when the other drivers have been probed). */
  update(drivers: OfferedProbe[]): Promise<void>;
  /** Stops refreshing `lastSeenAt` and marks the row stopped. */
  stop(): Promise<void>;
}

/**
 * Upserts the worker's probe row, then refreshes its `lastSeenAt` every `intervalMs` so the
 * dashboard can tell live workers from dead ones. A failed write is logged, never fatal: the
 * capability check is for people, the worker runs without it.
 */
export async function recordSandboxProbe(pool: PgPool, record: SandboxProbeRecord, logger: Logger, intervalMs = 30_000): Promise<ProbeStore> {
  await upsertSandboxProbe(pool, record).catch((error: unknown) => logger.warn({ err: error }, 'could not record the sandbox probe'));
  const timer = setInterval(() => {
    touchSandboxProbe(pool, record.workerId).catch((error: unknown) => logger.warn({ err: error }, 'could not refresh the sandbox probe'));
  }, intervalMs);
  timer.unref();
  let stopped = false;
  return {
    async update(drivers) {
      // A probe that finishes during shutdown is dropped: the pool may be gone.
      if (stopped) return;
      await setSandboxProbeDrivers(pool, record.workerId, drivers).catch((error: unknown) => logger.warn({ err: error }, 'could not record the sandbox probe'));
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await markSandboxProbeStopped(pool, record.workerId).catch(() => undefined);
    },
  };
}
