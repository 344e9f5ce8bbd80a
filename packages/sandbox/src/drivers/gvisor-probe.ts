import { chown, mkdir } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import type { ExecRequest, ExecResult } from '../types';

/**
 * Starts one gVisor sandbox as an unprivileged uid and checks that the command really ran under
 * gVisor's kernel (it reports its own release, never the host's), with no capability and a
 * writable workspace. Returns null when it works, else the reason.
 */
export async function probeGvisor(stateDir: string, probeUid: number, exec: (request: ExecRequest) => Promise<ExecResult>): Promise<string | null> {
  const root = process.getuid?.() === 0;
  const uid = root ? probeUid : (process.getuid?.() ?? 0);
  const gid = root ? probeUid : (process.getgid?.() ?? 0);
  const dir = join(stateDir, 'probe-workspace');
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (root) await chown(dir, uid, gid);
    const result = await exec({
      argv: ['/bin/sh', '-c', 'test "$(uname -r)" != "$1" && grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status && test -w /workspace', 'probe', release()],
      workspace: { path: dir, uid, gid },
      limits: { wallTimeMs: 20_000 },
    });
    if (result.exitCode === 0) return null;
    return `a probe sandbox did not behave: exit ${result.exitCode} ${result.stderr.trim().slice(0, 300)}`;
  } catch (error) {
    return `runsc cannot start a sandbox on this host: ${(error as Error).message}`;
  }
}
