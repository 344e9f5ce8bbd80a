import { mkdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describeExit, spawnChild, type ManagedChild } from './children';
import { findFreePort } from './free-port';

const READY_TIMEOUT_MS = 20_000;

/** A running private redis-server. */
export interface PrivateRedis {
  /** `redis://:<password>@127.0.0.1:<port>`: every client (web, worker) connects with the password. */
  url: string;
  child: ManagedChild;
  stop(): Promise<void>;
}

/**
 * Starts `redisServer` as a child (not daemonized) on a free port bound to 127.0.0.1, with nothing
 * persisted (`--save '' --appendonly no`) and its working dir in `LOOPLANE_HOME/redis`. Its log
 * goes to `LOOPLANE_HOME/logs/redis.log`.
 *
 * It requires `password` (`requirepass`): 127.0.0.1 is reachable by every local user and by
 * anything that can make a local request. The password reaches redis-server in a config file of
 * mode 0600 that is removed once the server answers, never on its command line (which every
 * local user can read in /proc); it is kept in `LOOPLANE_HOME/secrets.json` (0600) for the next start.
 */
export async function startPrivateRedis(options: {
  home: string;
  redisServer: string;
  password: string;
  inheritedEnv: Record<string, string>;
}): Promise<PrivateRedis> {
  const dir = join(options.home, 'redis');
  const logDir = join(options.home, 'logs');
  await mkdir(dir, { recursive: true });
  await mkdir(logDir, { recursive: true });
  if (!/^[A-Za-z0-9_-]{16,}$/.test(options.password)) throw new Error('the private Redis password must be 16+ URL-safe characters');
  const authFile = join(dir, 'auth.conf');
  await writeFile(authFile, `requirepass ${options.password}\n`, { mode: 0o600 });
  const port = await findFreePort();
  // The rest as arguments: `--save ''` needs the empty string as its own argv entry.
  const args = [authFile, '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--dir', dir, '--daemonize', 'no', '--unixsocket', '', '--protected-mode', 'yes');
  let child: ManagedChild;
  try {
    child = await spawnChild({
      name: 'redis',
      command: options.redisServer,
      args,
      cwd: dir,
      env: options.inheritedEnv,
      logFile: join(logDir, 'redis.log'),
    });
  } catch (error) {
    await rm(authFile, { force: true });
    throw error;
  }
  const stop = () => child.stop('SIGTERM', 10_000);
  try {
    await waitForRedis(child, port, options.password);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    await rm(authFile, { force: true });
  }
  return { url: `redis://:${options.password}@127.0.0.1:${port}`, child, stop };
}

async function waitForRedis(child: ManagedChild, port: number, password: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exit: string | null = null;
  void child.exited.then((result) => (exit = describeExit(result)));
  for (;;) {
    if (exit !== null) throw new Error(`the private redis-server ${exit}:\n${child.tail.text()}`);
    if (await ping(port, password)) return;
    if (Date.now() > deadline) throw new Error(`the private redis-server did not answer PING within ${READY_TIMEOUT_MS / 1000} s:\n${child.tail.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Authenticates and sends one inline PING; true when the answers are +OK and +PONG. */
function ping(port: number, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(`AUTH ${password}\r\nPING\r\n`));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      const lines = answer.split('\r\n');
      if (lines.length > 2 || (lines.length === 2 && !lines[0]!.startsWith('+'))) done(answer.startsWith('+OK\r\n+PONG\r\n'));
    });
  });
}
