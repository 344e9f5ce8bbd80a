import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';

/** A worker's sandbox as it found it at start: the Settings page reads it (`system.sandbox`). */
export interface SandboxProbeRow {
  workerId: string;
  hostname: string;
  pid: number;
  /** Loops it runs at once (WORKER_CONCURRENCY). */
  concurrency: number;
  selectedDriver: string;
  available: boolean;
  reason: string | null;
  /** The driver probes, stored as JSON. */
  drivers: readonly unknown[];
}

const UPSERT_SQL = namedQuery({
  name: 'looplane_sandbox_probe_upsert_v1',
  params: {
    worker_id: param.text,
    hostname: param.text,
    pid: param.int,
    concurrency: param.int,
    selected_driver: param.text,
    available: param.boolean,
    reason: param.nullableText,
    drivers: param.jsonb,
  },
  text: `INSERT INTO "WorkerSandboxProbe" ("workerId", hostname, pid, concurrency, "selectedDriver", available, reason, drivers, "probedAt", "lastSeenAt")
       VALUES (:worker_id, :hostname, :pid, :concurrency, :selected_driver, :available, :reason, :drivers, now(), now())
       ON CONFLICT ("workerId") DO UPDATE SET hostname = EXCLUDED.hostname, pid = EXCLUDED.pid, concurrency = EXCLUDED.concurrency, "selectedDriver" = EXCLUDED."selectedDriver",
         available = EXCLUDED.available, reason = EXCLUDED.reason, drivers = EXCLUDED.drivers, "probedAt" = now(), "lastSeenAt" = now(), "stoppedAt" = NULL`,
});

/** Records the worker's probe row (seen now, not stopped). */
export async function upsertSandboxProbe(db: Queryable, row: SandboxProbeRow): Promise<void> {
  await db.query(
    UPSERT_SQL.bind({
      worker_id: row.workerId,
      hostname: row.hostname,
      pid: row.pid,
      concurrency: row.concurrency,
      selected_driver: row.selectedDriver,
      available: row.available,
      reason: row.reason,
      drivers: JSON.stringify(row.drivers),
    }),
  );
}

const SEEN_SQL = namedQuery({
  name: 'looplane_sandbox_probe_seen_v1',
  params: { worker_id: param.text },
  text: `UPDATE "WorkerSandboxProbe" SET "lastSeenAt" = now() WHERE "workerId" = :worker_id`,
});

/** The worker is alive: the dashboard tells live workers from dead ones by `lastSeenAt`. */
export async function touchSandboxProbe(db: Queryable, workerId: string): Promise<void> {
  await db.query(SEEN_SQL.bind({ worker_id: workerId }));
}

const DRIVERS_SQL = namedQuery({
  name: 'looplane_sandbox_probe_drivers_v1',
  params: { worker_id: param.text, drivers: param.jsonb },
  text: `UPDATE "WorkerSandboxProbe" SET drivers = :drivers WHERE "workerId" = :worker_id`,
});

/** Replaces the recorded driver probes. */
export async function setSandboxProbeDrivers(db: Queryable, workerId: string, drivers: readonly unknown[]): Promise<void> {
  await db.query(DRIVERS_SQL.bind({ worker_id: workerId, drivers: JSON.stringify(drivers) }));
}

const STOPPED_SQL = namedQuery({
  name: 'looplane_sandbox_probe_stopped_v1',
  params: { worker_id: param.text },
  text: `UPDATE "WorkerSandboxProbe" SET "stoppedAt" = now() WHERE "workerId" = :worker_id`,
});

/** Marks the worker's probe row stopped. */
export async function markSandboxProbeStopped(db: Queryable, workerId: string): Promise<void> {
  await db.query(STOPPED_SQL.bind({ worker_id: workerId }));
}
