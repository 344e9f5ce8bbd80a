import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * gVisor's `runsc` comes from Debian, but bookworm's own build (2022) refuses the statx flags
 * coreutils passes (`ls` and `stat` fail inside), so on bookworm it is installed from
 * bookworm-backports (a 2024 build); trixie and later carry a usable one.
 */
export const BACKPORTS_SOURCE_PATH = '/etc/apt/sources.list.d/looplane-bookworm-backports.sources';

export const BACKPORTS_SOURCE = [
  'Types: deb',
  'URIs: http://deb.debian.org/debian',
  'Suites: bookworm-backports',
  'Components: main',
  'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
  '',
].join('\n');

/** The build date in `runsc --version` output (`runsc version 0.0~20240729.0`), or null. */
export function runscBuildDate(versionText: string): string | null {
  return /version \S*?(\d{8})/.exec(versionText)?.[1] ?? null;
}

/** Whether the runsc at `path` is new enough (built 2023 or later); false when it does not run. */
export function runscUsable(path: string): boolean {
  try {
    const date = runscBuildDate(execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 }));
    return date === null || date >= '20230101';
  } catch {
    return false;
  }
}

/** The Debian codename of this host (`bookworm`), or null off Debian/Ubuntu. */
export function debianCodename(osRelease = readOsRelease()): string | null {
  return /^VERSION_CODENAME=("?)([a-z]+)\1$/m.exec(osRelease)?.[2] ?? null;
}

function readOsRelease(): string {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}
