import { join } from 'node:path';
import type { Printer } from '../printer';
import { spawnChild, type ManagedChild } from './children';
import { paths } from './paths';
import { runCommand } from './run-command';

/** The web's HTTP server in front of Next (`apps/web/server/main.ts`, bundled), run with plain node. */
const webServerBundle = join(paths.webDir, 'dist', 'server.mjs');

/** Bundles the web's server from the current sources (apps/web/server/build.mjs, under a second). */
export async function buildWebServerBundle(options: { env: Record<string, string>; signal: AbortSignal }): Promise<void> {
  await runCommand({
    name: 'web server build',
    command: process.execPath,
    args: [join(paths.webDir, 'server', 'build.mjs')],
    cwd: paths.webDir,
    env: options.env,
    signal: options.signal,
  });
}

/** Starts the web app with exactly `env` (it listens on its HOST and PORT and validates the rest itself). */
export function spawnWeb(options: { env: Record<string, string>; printer: Printer }): Promise<ManagedChild> {
  return spawnChild({ name: 'web', command: process.execPath, args: [webServerBundle], cwd: paths.webDir, env: options.env, printer: options.printer });
}
