import { release as hostRelease } from 'node:os';
import type { ExecRequest, ExecResult } from '../types';
import { probeWorkspace } from './probe-workspace';

/**
 * Boots one guest as an unprivileged uid and checks that the command really ran under the
 * guest's kernel (it reports the guest image's release), with no capability, a uid that is not 0
 * and a writable workspace. Returns null when it works, else the reason.
 */
export async function probeMicrovm(
  stateDir: string,
  probeUid: number,
  guestRelease: string,
  exec: (request: ExecRequest) => Promise<ExecResult>,
): Promise<string | null> {
  try {
    const result = await exec({
      argv: [
        '/bin/sh',
        '-c',
        'test "$(uname -r)" = "$1" && test "$(id -u)" != 0 && grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status && test -w /workspace && echo "$2" >/workspace/.probe && cat /workspace/.probe',
        'probe',
        guestRelease,
        hostRelease(),
      ],
      workspace: await probeWorkspace(stateDir, probeUid),
      limits: { wallTimeMs: 30_000 },
    });
    if (result.exitCode === 0 && result.stdout.trim() === hostRelease()) return null;
    return `a probe microVM did not behave: exit ${result.exitCode} ${`${result.stdout} ${result.stderr}`.trim().slice(0, 300)}`;
  } catch (error) {
    return `QEMU cannot start a microVM on this host: ${(error as Error).message}`;
  }
}
