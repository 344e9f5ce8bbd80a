import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe } from 'vitest';
import type { FixtureDriver } from './sandbox-fixture';

/**
 * Why a driver's package is absent on this machine, or null when it is installed. Only an absent
 * package skips a driver's run of the escape suite: an installed driver that fails its probe fails
 * the suite.
 */
export function driverAbsent(kind: FixtureDriver): string | null {
  if (kind === 'microvm') return microvmAbsent();
  const binary = kind === 'gvisor' ? 'runsc' : 'bwrap';
  try {
    execFileSync(binary, ['--version'], { stdio: 'ignore', timeout: 10_000 });
    return null;
  } catch {
    return `${binary} is not installed (the ${kind === 'gvisor' ? 'runsc' : 'bubblewrap'} package)`;
  }
}

/** The drivers the escape suite runs on, with the same expectations (differences are named in the tests). */
const ESCAPE_DRIVERS: readonly FixtureDriver[] = ['bwrap', 'gvisor', 'microvm'];

/** Declares `body` once per driver: `on bwrap`, `on gvisor` (skipped, with the reason, where its package is absent). */
export function describeEachDriver(body: (kind: FixtureDriver) => void): void {
  for (const kind of ESCAPE_DRIVERS) {
    const reason = driverAbsent(kind);
    if (reason) describe.skip(`on ${kind} (skipped: ${reason})`, () => body(kind));
    else describe(`on ${kind}`, () => body(kind));
  }
}

/** The microVM needs QEMU, a Debian kernel in /boot and a static busybox (qemu-system-x86, linux-image-amd64, busybox-static). */
function microvmAbsent(): string | null {
  try {
    execFileSync('qemu-system-x86_64', ['--version'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return 'qemu-system-x86_64 is not installed (the qemu-system-x86 package)';
  }
  const kernels = existsSync('/boot') ? readdirSync('/boot').filter((name) => name.startsWith('vmlinuz-')) : [];
  if (kernels.length === 0) return 'no kernel in /boot (the linux-image-amd64 package)';
  if (!existsSync('/bin/busybox')) return 'no /bin/busybox (the busybox-static package)';
  return null;
}
