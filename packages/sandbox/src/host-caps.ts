import { availableParallelism, totalmem } from 'node:os';
import { readOwnCgroupLimits, type OwnCgroupLimits } from './cgroups/own-limits';
import type { SandboxLimits } from './limits';

const MiB = 1024 * 1024;

/**
 * The most any one sandbox on this host may be given, whatever a template, run, policy or worker
 * default asks for. Memory and CPU always have a cap; pids only where the worker's cgroup limits them.
 */
export interface HostCaps {
  memoryBytes: number;
  cpus: number;
  pids: number | null;
}

/** What the caps are computed from: the machine's totals and the worker's own cgroup limits. */
export interface HostFacts {
  totalMemoryBytes: number;
  cpuCount: number;
  cgroup: OwnCgroupLimits;
}

/** Processes and threads left to the worker itself under a cgroup pids limit. */
const PIDS_RESERVE = 64;

/**
 * Memory kept for the worker, the host and everything else: a tenth of what there is, at least
 * 256 MiB and at most half (a 23 GiB host caps a sandbox at about 20.7 GiB, a 1 GiB one at 768 MiB).
 */
export function memoryReserve(bytes: number): number {
  return Math.min(Math.max(256 * MiB, Math.round(bytes / 10)), Math.floor(bytes / 2));
}

/**
 * The caps for a host: memory is the smaller of the machine's total and the worker's cgroup limit,
 * less {@link memoryReserve}; CPUs are the smaller of the CPU count and the worker's cgroup quota;
 * pids, the worker's cgroup limit less a reserve for the worker's own threads. Each cap stays at
 * or above the smallest value a sandbox can run with (16 MiB, 0.05 CPU, 8 pids).
 */
export function hostCapsOf(facts: HostFacts): HostCaps {
  const memory = Math.min(facts.totalMemoryBytes, facts.cgroup.memoryBytes ?? Number.POSITIVE_INFINITY);
  const cpus = Math.min(facts.cpuCount, facts.cgroup.cpus ?? Number.POSITIVE_INFINITY, 256);
  return {
    // Whole MiB: the kernel rounds a memory limit down to its page size, so the cap is what a cgroup really holds.
    memoryBytes: Math.max(16 * MiB, Math.floor((memory - memoryReserve(memory)) / MiB) * MiB),
    cpus: Math.max(0.05, Math.floor(cpus * 100) / 100),
    pids: facts.cgroup.pids === null ? null : Math.max(8, facts.cgroup.pids - PIDS_RESERVE),
  };
}

/** Reads this host's caps (os.totalmem, os.availableParallelism, and this process's cgroup limits). */
export async function readHostCaps(): Promise<HostCaps> {
  return hostCapsOf({ totalMemoryBytes: totalmem(), cpuCount: availableParallelism(), cgroup: await readOwnCgroupLimits() });
}

/**
 * `limits` lowered to the host's caps. The private /tmp is a tmpfs, so memory too: it is capped
 * at the memory cap.
 */
export function capToHost(limits: SandboxLimits, caps: HostCaps): SandboxLimits {
  return {
    ...limits,
    memoryBytes: Math.min(limits.memoryBytes, caps.memoryBytes),
    tmpBytes: Math.min(limits.tmpBytes, caps.memoryBytes),
    cpus: Math.min(limits.cpus, caps.cpus),
    pids: caps.pids === null ? limits.pids : Math.min(limits.pids, caps.pids),
  };
}
