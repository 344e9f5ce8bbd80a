/**
 * The one ordered scale of sandbox isolation, weakest first. Each real level is a driver:
 * `bwrap` (namespaces and a seccomp filter on the host kernel), `podman` (a rootless OCI container
 * on the host kernel), `gvisor` (every system call served by gVisor's user-space kernel), `microvm`
 * (a QEMU virtual machine with its own Linux kernel). `none`
 * is the development-only `dangerous-none` driver. Templates, graph nodes and the policy name a
 * minimum on this scale; a worker runs a call on a driver at that level or above, never below.
 */
export const ISOLATION_LEVELS = ['none', 'bwrap', 'podman', 'gvisor', 'microvm'] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

/** The drivers a template, a node or the policy may ask for (every real level). */
export const SANDBOX_LEVEL_DRIVERS = ['bwrap', 'podman', 'gvisor', 'microvm'] as const;
export type SandboxLevelDriver = (typeof SANDBOX_LEVEL_DRIVERS)[number];

/** Where a driver stands on the scale; -1 for a name the scale does not know. */
export function isolationRank(driver: string): number {
  return (ISOLATION_LEVELS as readonly string[]).indexOf(driver === 'dangerous-none' ? 'none' : driver);
}

/** Whether `driver` isolates at least as strongly as `minimum` (an unknown driver never does). */
export function meetsIsolation(driver: string, minimum: string): boolean {
  const rank = isolationRank(driver);
  return rank !== -1 && rank >= isolationRank(minimum);
}

/** The stronger of two minimums (either may be absent). */
export function strongerMinimum<T extends string>(a: T | undefined, b: T | undefined): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return isolationRank(b) > isolationRank(a) ? b : a;
}
