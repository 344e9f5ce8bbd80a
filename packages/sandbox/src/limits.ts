import { z } from 'zod';

const MiB = 1024 * 1024;

/**
 * What one sandboxed execution may use. Every field has a default, so `{}` is a valid input; the
 * policy's sandbox limits are parsed through this schema before they reach a driver.
 */
export const sandboxLimitsSchema = z.object({
  /** Start to kill, including sandbox setup. */
  wallTimeMs: z
    .int()
    .min(100)
    .max(24 * 3600_000)
    .default(60_000),
  /** CPU bandwidth in cores (a rate, not CPU seconds). */
  cpus: z.number().min(0.05).max(256).default(1),
  memoryBytes: z
    .int()
    .min(16 * MiB)
    .default(512 * MiB),
  /** Processes and threads, sandbox helpers included. */
  pids: z.int().min(8).max(1_000_000).default(256),
  /** stdout + stderr together; past it the process is killed and the output marked truncated. */
  outputBytes: z
    .int()
    .min(1024)
    .default(1 * MiB),
  /** Disk used by the workspace (allocated blocks, so sparse files count what they really use). */
  workspaceBytes: z
    .int()
    .min(MiB)
    .default(1024 * MiB),
  /** Files and directories in the workspace: an inode fill is a disk fill too. */
  workspaceFiles: z.int().min(100).default(200_000),
  /** Size of the private /tmp (a tmpfs, so it is memory). */
  tmpBytes: z
    .int()
    .min(MiB)
    .default(64 * MiB),
});
export type SandboxLimits = z.output<typeof sandboxLimitsSchema>;
export type SandboxLimitsInput = z.input<typeof sandboxLimitsSchema>;
export type LimitName = keyof SandboxLimits;

export const LIMIT_NAMES = Object.keys(sandboxLimitsSchema.shape) as LimitName[];

/**
 * How a limit is held. `cgroup-v1`/`cgroup-v2`: the kernel enforces it for the whole tree.
 * `rlimit`: per process (or per uid), weaker. `supervisor`: the worker kills the tree.
 * `watchdog`: the worker measures periodically and kills, so a fast writer can overshoot by what
 * it writes in one interval. `tmpfs`: a size-limited mount.
 */
export type Enforcement = 'cgroup-v1' | 'cgroup-v2' | 'rlimit' | 'supervisor' | 'watchdog' | 'tmpfs';

/** Whether one limit is in force, and by what; `note` says what is weaker than it looks. */
export interface LimitEnforcement {
  enforced: boolean;
  by: Enforcement | null;
  note?: string;
}

/** One entry per limit; the driver fills it from what it actually applied, never from the request. */
export type LimitsReport = Record<LimitName, LimitEnforcement>;

/** Parses limits, filling defaults. */
export function resolveLimits(input: SandboxLimitsInput | undefined): SandboxLimits {
  return sandboxLimitsSchema.parse(input ?? {});
}

/** A report in which nothing is enforced, to be filled in by a driver. */
export function emptyReport(): LimitsReport {
  const report = {} as LimitsReport;
  for (const name of LIMIT_NAMES) report[name] = { enforced: false, by: null };
  return report;
}

/** The limits a report says are not enforced. */
export function unenforced(report: LimitsReport): LimitName[] {
  return LIMIT_NAMES.filter((name) => !report[name].enforced);
}
