import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ExecRequest, ExecResult } from '../types';
import { probeWorkspace } from './probe-workspace';

const run = promisify(execFile);

/** bwrap 0.8 is the first with --disable-userns, which the isolation depends on. */
export function bwrapVersionOk(versionText: string): boolean {
  const match = /(\d+)\.(\d+)/.exec(versionText);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 0 || minor >= 8;
}

/**
 * Checks that bwrap exists, is new enough, and really starts a sandbox here (user namespaces may
 * be disabled by the kernel or a container runtime). Returns null when it works, else the reason.
 */
export async function probeBwrap(
  bwrapPath: string,
  stateDir: string,
  probeUid: number,
  exec: (request: ExecRequest) => Promise<ExecResult>,
): Promise<string | null> {
  const version = await run(bwrapPath, ['--version'], { timeout: 5000 }).then(
    (r) => r.stdout,
    (error: Error) => error,
  );
  if (version instanceof Error) return `bwrap not found (${bwrapPath}): install the bubblewrap package`;
  if (!bwrapVersionOk(version)) return `bwrap ${version.trim()} is too old: 0.8 or newer is needed for --disable-userns`;
  try {
    const result = await exec({
      argv: ['/bin/sh', '-c', 'test "$(id -u)" = 1000 && test -w /workspace'],
      workspace: await probeWorkspace(stateDir, probeUid),
      limits: { wallTimeMs: 10_000 },
    });
    if (result.exitCode === 0) return null;
    return `a probe sandbox did not behave: exit ${result.exitCode} ${result.stderr.trim().slice(0, 200)}`;
  } catch (error) {
    return `bwrap cannot start a sandbox on this host: ${(error as Error).message}`;
  }
}
