import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable named `name` on `path` (a PATH value), or null. */
export function findOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** What to do when redis-server is missing and cannot be installed for the user (see host-packages.ts). */
export const INSTALL_HINT =
  'redis-server was not found on PATH. Install Redis (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`) or set REDIS_URL to an existing Redis';
