import { isolationRank } from '@looplane/shared';
import { z } from 'zod';
import { createRouter, teamProcedure } from '../trpc';

import { LIVE_WORKER_WINDOW_MS } from '../services/live-workers';

const LIMITS = ['wallTimeMs', 'cpus', 'memoryBytes', 'pids', 'outputBytes', 'workspaceBytes', 'workspaceFiles', 'tmpBytes'] as const;
const DRIVERS = ['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none'] as const;

// The probe JSON as the worker writes it (packages/sandbox DriverProbe); read defensively, it is
// a worker's output, not this API's.
const limitSchema = z.object({ enforced: z.boolean().catch(false), by: z.string().nullable().catch(null), note: z.string().optional().catch(undefined) });
const driverProbeSchema = z.object({
  driver: z.string(),
  available: z.boolean().catch(false),
  reason: z.string().nullable().catch(null),
  limitsEnforced: z.record(z.string(), limitSchema).catch({}),
  offered: z.boolean().optional().catch(undefined),
});

interface SandboxLimitView {
  limit: (typeof LIMITS)[number];
  enforced: boolean;
  by: string | null;
  note: string | null;
}

export interface SandboxDriverView {
  driver: string;
  works: boolean;
  reason: string | null;
  /** Whether this worker runs its tools with this driver by default. */
  selected: boolean;
  /** Whether this worker runs calls on it (its default, and the stronger ones it offers for calls that need them). */
  offered: boolean;
  /** Its rank on the isolation scale (none < bwrap < podman < gvisor), for ordering and display. */
  level: number;
  limits: SandboxLimitView[];
}

export interface SandboxWorkerView {
  workerId: string;
  hostname: string;
  pid: number;
  selectedDriver: string;
  /** Whether the selected driver works: when not, every sandboxed tool call of this worker fails with `reason`. */
  available: boolean;
  reason: string | null;
  probedAt: Date;
  lastSeenAt: Date;
  /** Every probed driver, in a fixed order (bwrap, podman, gvisor, microvm, dangerous-none); a driver not probed yet is absent. */
  drivers: SandboxDriverView[];
}

function driverViews(raw: unknown, selected: string): SandboxDriverView[] {
  const parsed = z.array(z.unknown()).catch([]).parse(raw);
  const probes = parsed.flatMap((item) => {
    const probe = driverProbeSchema.safeParse(item);
    return probe.success ? [probe.data] : [];
  });
  const order = (driver: string) => {
    const at = DRIVERS.indexOf(driver as (typeof DRIVERS)[number]);
    return at === -1 ? DRIVERS.length : at;
  };
  return probes
    .sort((a, b) => order(a.driver) - order(b.driver))
    .map((probe) => ({
      driver: probe.driver,
      works: probe.available,
      reason: probe.reason,
      selected: probe.driver === selected,
      offered: probe.offered ?? probe.driver === selected,
      level: isolationRank(probe.driver),
      limits: LIMITS.map((limit) => {
        const entry = probe.limitsEnforced[limit];
        return { limit, enforced: entry?.enforced ?? false, by: entry?.by ?? null, note: entry?.note ?? null };
      }),
    }));
}

/** Facts about the installation that every team member may see (no secrets). */
export const systemRouter = createRouter({
  /**
   * The sandbox capability check of each live worker (latest probe per worker): which drivers
   * work on its host and why not, which limits hold and by what. Workers are shared by every
   * team, so this shows hosts, not team data.
   */
  sandbox: teamProcedure('viewer').query(async ({ ctx }): Promise<{ workers: SandboxWorkerView[]; liveWindowMs: number }> => {
    const rows = await ctx.db.workerSandboxProbe.findMany({
      where: { stoppedAt: null, lastSeenAt: { gt: new Date(Date.now() - LIVE_WORKER_WINDOW_MS) } },
      orderBy: [{ probedAt: 'desc' }, { workerId: 'asc' }],
      take: 100,
    });
    return {
      liveWindowMs: LIVE_WORKER_WINDOW_MS,
      workers: rows.map((row) => ({
        workerId: row.workerId,
        hostname: row.hostname,
        pid: row.pid,
        selectedDriver: row.selectedDriver,
        available: row.available,
        reason: row.reason,
        probedAt: row.probedAt,
        lastSeenAt: row.lastSeenAt,
        drivers: driverViews(row.drivers, row.selectedDriver),
      })),
    };
  }),
});
