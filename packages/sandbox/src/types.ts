import type { LimitsReport, SandboxLimitsInput } from './limits';

export type DriverName = 'bwrap' | 'podman' | 'gvisor' | 'microvm' | 'dangerous-none';

/** The host side of a workspace as a driver needs it: where it is and which uid owns it. */
export interface WorkspaceMount {
  /** Absolute host path of the work tree; it appears at `/workspace` inside. */
  path: string;
  uid: number;
  gid: number;
}

/** One command to run in the sandbox. */
export interface ExecRequest {
  /** argv[0] is looked up on the sandbox's PATH. Use `['/bin/sh', '-c', line]` for a command line. */
  argv: string[];
  workspace: WorkspaceMount;
  /** Working directory relative to the workspace root (default: the root). */
  cwd?: string;
  /** Extra environment; the sandbox starts from an empty one, never from the worker's. */
  env?: Record<string, string>;
  stdin?: string;
  limits?: SandboxLimitsInput;
  /** The run's egress proxy socket; without it the sandbox has no network at all. */
  egress?: { socketPath: string };
}

/** Why the supervisor ended the process, if it did. */
export type KillReason = 'timeout' | 'cancel' | 'output-limit' | 'disk-limit';

export interface ExecResult {
  /** Exit status of the command; null when it ended by a signal or was killed. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** True when output was cut at `outputBytes` (the text then ends with a marker line). */
  truncated: boolean;
  killedBy: KillReason | null;
  /** The memory limit was hit and the kernel killed a process (known only with cgroups). */
  oomKilled: boolean;
  durationMs: number;
  /** What was actually enforced for this execution. */
  limits: LimitsReport;
}

/** What a driver can do on this host (the Settings page shows it). */
export interface DriverProbe {
  driver: DriverName;
  available: boolean;
  /** Why it is unavailable, or what is degraded; null when it works fully. */
  reason: string | null;
  limitsEnforced: LimitsReport;
}

/**
 * A way to run a command in a sandbox. `exec` resolves for anything the command did (non-zero
 * exit, killed by a limit, cancelled); it throws only when the sandbox itself could not be set up.
 * When it resolves, no process of the execution is left.
 */
export interface SandboxDriver {
  readonly name: DriverName;
  probe(): Promise<DriverProbe>;
  exec(request: ExecRequest, options?: { signal?: AbortSignal }): Promise<ExecResult>;
}
