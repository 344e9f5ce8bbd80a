import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describeExit, spawnChild, type ManagedChild } from './children';
import { findFreePort } from './free-port';

const READY_TIMEOUT_MS = 20_000;

/** A running private redis-server. */
export interface PrivateRedis {
  url: string;
  child: ManagedChild;
  stop(): Promise<void>;
}

/**
 * Starts `redisServer` as a child (not daemonized) on a free port bound to 127.0.0.1, with nothing
 * persisted (`--save '' --appendonly no`) and its working dir in `LOOPLANE_HOME/redis`. Its log
 * goes to `LOOPLANE_HOME/logs/redis.log`.
 */
export async function startPrivateRedis(options: {
  home: string;
  redisServer: string;
  inheritedEnv: Record<string, string>;
}): Promise<PrivateRedis> {
  const dir = join(options.home, 'redis');
  const logDir = join(options.home, 'logs');
  await mkdir(dir, { recursive: true });
  await mkdir(logDir, { recursive: true });
  const port = await findFreePort();
  // Arguments, not a config file: `--save ''` needs the empty string as its own argv entry.
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--dir', dir, '--daemonize', 'no', '--unixsocket', '', '--protected-mode', 'yes');
  const child = await spawnChild({
    name: 'redis',
    command: options.redisServer,
    args,
    cwd: dir,
    env: options.inheritedEnv,
    logFile: join(logDir, 'redis.log'),
  });
  const stop = () => child.stop('SIGTERM', 10_000);
  try {
    await waitForRedis(child, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, child, stop };
}

async function waitForRedis(child: ManagedChild, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exit: string | null = null;
  void child.exited.then((result) => (exit = describeExit(result)));
  for (;;) {
    if (exit !== null) throw new Error(`the private redis-server ${exit}:\n${child.tail.text()}`);
    if (await ping(port)) return;
    if (Date.now() > deadline) throw new Error(`the private redis-server did not answer PING within ${READY_TIMEOUT_MS / 1000} s:\n${child.tail.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends one inline PING; true when the answer is +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}
