import { release } from 'node:os';
import type { ExecRequest, ExecResult } from '../types';
import { probeWorkspace } from './probe-workspace';

/**
 * Starts one gVisor sandbox as an unprivileged uid and checks that the command really ran under
 * gVisor's kernel (it reports its own release, never the host's), with no capability and a
 * writable workspace. Returns null when it works, else the reason.
 */
export async function probeGvisor(stateDir: string, probeUid: number, exec: (request: ExecRequest) => Promise<ExecResult>): Promise<string | null> {
  try {
    const result = await exec({
      argv: ['/bin/sh', '-c', 'test "$(uname -r)" != "$1" && grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status && test -w /workspace', 'probe', release()],
      workspace: await probeWorkspace(stateDir, probeUid),
      limits: { wallTimeMs: 20_000 },
    });
    if (result.exitCode === 0) return null;
    return `a probe sandbox did not behave: exit ${result.exitCode} ${result.stderr.trim().slice(0, 300)}`;
  } catch (error) {
    return `runsc cannot start a sandbox on this host: ${(error as Error).message}`;
  }
}
