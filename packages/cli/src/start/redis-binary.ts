import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { userInfo } from 'node:os';
import type { Printer } from '../printer';
import { runCommand } from './run-command';

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

/** What {@link ensureRedisServer} needs from its surroundings (injected so the decision is testable). */
export interface RedisInstallContext {
  env: Record<string, string>;
  printer: Printer;
  signal: AbortSignal;
  isRoot?: boolean;
  /** Runs `apt-get <args>`; defaults to a real child process with output shown as `apt | ...`. */
  aptGet?: (args: string[]) => Promise<void>;
}

export const INSTALL_HINT =
  'redis-server was not found on PATH. Install Redis (Debian/Ubuntu: `sudo apt-get install redis-server`, macOS: `brew install redis`) or set REDIS_URL to an existing Redis';

/**
 * The path of `redis-server`. When it is missing and the CLI runs as root on a system with
 * apt-get, installs the `redis-server` package (running `apt-get update` first only if the plain
 * install fails), saying what it does; otherwise fails with one line saying what to install.
 */
export async function ensureRedisServer(context: RedisInstallContext): Promise<string> {
  const found = findOnPath('redis-server', context.env.PATH);
  if (found) return found;
  const aptGetPath = findOnPath('apt-get', context.env.PATH);
  const isRoot = context.isRoot ?? userInfo().uid === 0;
  if (!isRoot || !aptGetPath) throw new Error(INSTALL_HINT);

  const aptGet =
    context.aptGet ??
    ((args: string[]) =>
      runCommand({
        name: 'apt',
        command: aptGetPath,
        args,
        cwd: '/',
        // Never prompt (no terminal may be attached).
        env: { ...context.env, DEBIAN_FRONTEND: 'noninteractive' },
        signal: context.signal,
        printer: context.printer,
      }));
  context.printer.info('redis-server is not installed: installing it with `apt-get install -y redis-server`…');
  try {
    await aptGet(['install', '-y', '--no-install-recommends', 'redis-server']);
  } catch {
    context.signal.throwIfAborted();
    context.printer.info('The install failed; refreshing the package lists with `apt-get update` and trying again…');
    await aptGet(['update']);
    await aptGet(['install', '-y', '--no-install-recommends', 'redis-server']);
  }
  const installed = findOnPath('redis-server', context.env.PATH);
  if (!installed) throw new Error(`apt-get installed redis-server but it is still not on PATH (${context.env.PATH ?? ''}); ${INSTALL_HINT}`);
  return installed;
}
