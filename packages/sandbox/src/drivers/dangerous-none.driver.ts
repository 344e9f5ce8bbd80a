import { join } from 'node:path';
import { AppError } from '@looplane/shared';
import { resolveLimits, type LimitsReport } from '../limits';
import { killGroup, supervise } from '../process/supervise';
import type { DriverProbe, ExecRequest, ExecResult, SandboxDriver } from '../types';
import { finalKillReason, overDiskLimit } from '../workspace/disk-usage';
import { checkEnv, innerCwd, launchIdentity } from './exec-support';
import { baseEnv } from './sandbox-env';

export interface DangerousNoneOptions {
  /** The worker's environment name; anything but 'development' refuses. */
  environment: string;
  /** An admin turned this driver on for the team (the setting is audited by the caller). */
  adminEnabled: boolean;
}

/**
 * No sandbox at all: a plain process in the workspace directory, for development machines without
 * bwrap. It still clears the environment, runs as the workspace uid when root and kills its
 * process group on timeout; but the whole host file system and network are reachable and a
 * setsid child escapes the kill. Refuses unless the environment is development AND an admin
 * enabled it, both given explicitly.
 */
export class DangerousNoneDriver implements SandboxDriver {
  readonly name = 'dangerous-none';

  constructor(private readonly options: DangerousNoneOptions) {}

  async probe(): Promise<DriverProbe> {
    const refused = this.refusal();
    return {
      driver: 'dangerous-none',
      available: refused === null,
      reason: refused ?? 'no isolation: host files and network are reachable',
      limitsEnforced: REPORT,
    };
  }

  async exec(request: ExecRequest, options: { signal?: AbortSignal } = {}): Promise<ExecResult> {
    const refused = this.refusal();
    if (refused) throw new AppError('FORBIDDEN', refused);
    const limits = resolveLimits(request.limits);
    const identity = launchIdentity(request.workspace);
    const cwd = join(request.workspace.path, innerCwd(request.cwd).slice('/workspace'.length));
    const [command, ...args] = request.argv;
    if (!command) throw new AppError('BAD_REQUEST', 'argv is empty');
    const result = await supervise({
      command,
      args,
      ...identity.spawn,
      env: { ...baseEnv(false), HOME: request.workspace.path, ...checkEnv(request.env) },
      cwd,
      ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
      wallTimeMs: limits.wallTimeMs,
      outputBytes: limits.outputBytes,
      ...(options.signal ? { signal: options.signal } : {}),
      watchdog: { intervalMs: 1000, check: async () => ((await overDiskLimit(request.workspace.path, limits)) ? 'disk-limit' : null) },
      kill: async (child) => killGroup(child.pid),
    });
    const killedBy = await finalKillReason(result.killedBy, request.workspace.path, limits);
    return {
      ...result,
      killedBy,
      exitCode: result.killedBy ? null : result.exitCode,
      signal: result.killedBy ? 'SIGKILL' : result.signal,
      oomKilled: false,
      limits: REPORT,
    };
  }

  private refusal(): string | null {
    if (this.options.environment !== 'development') return `the dangerous-none driver runs only in development (this is ${this.options.environment})`;
    if (!this.options.adminEnabled) return 'the dangerous-none driver is off: an admin has to enable it';
    return null;
  }
}

const none = { enforced: false, by: null, note: 'no sandbox' } as const;
const REPORT: LimitsReport = {
  wallTimeMs: { enforced: true, by: 'supervisor', note: 'kills the process group only; setsid children survive' },
  outputBytes: { enforced: true, by: 'supervisor' },
  cpus: none,
  memoryBytes: none,
  pids: none,
  workspaceBytes: { enforced: true, by: 'watchdog' },
  workspaceFiles: { enforced: true, by: 'watchdog' },
  tmpBytes: none,
};
