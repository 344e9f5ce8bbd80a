import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import packageJson from '../package.json' with { type: 'json' };
import { connectDatabase, connectRedis } from './connections';
import { InvalidEnvironmentError, loadWorkerEnv, type WorkerEnv } from './env';
import { startHeartbeat } from './heartbeat';
import { createLogger } from './logger';
import { Shutdown } from './shutdown';

/**
 * The worker process: validate env → connect → announce itself (heartbeat) → run until
 * SIGTERM/SIGINT → ordered shutdown. Every component registers its shutdown step when it starts;
 * queue consumers (a later issue) start after the heartbeat and register in the `close` phase.
 */

let env: WorkerEnv;
try {
  env = loadWorkerEnv();
} catch (error) {
  if (!(error instanceof InvalidEnvironmentError)) throw error;
  // No logger yet (its level comes from the env): one plain line, like every Looplane process.
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = createLogger({ level: env.LOG_LEVEL });
const shutdown = new Shutdown({ logger });
shutdown.listen();
process.on('unhandledRejection', (error) => {
  logger.fatal({ err: error }, 'unhandled promise rejection');
  void shutdown.run('unhandledRejection', 1);
});
process.on('uncaughtException', (error) => {
  logger.fatal({ err: error }, 'uncaught exception');
  void shutdown.run('uncaughtException', 1);
});

const info = {
  id: `w_${randomBytes(6).toString('hex')}`,
  hostname: hostname(),
  pid: process.pid,
  startedAt: new Date().toISOString(),
  version: packageJson.version,
  concurrency: env.WORKER_CONCURRENCY,
};

try {
  const db = await connectDatabase(env.DATABASE_URL);
  shutdown.register('disconnect', 'postgres', () => db.$disconnect());
  const redis = await connectRedis(env.REDIS_URL, logger);
  shutdown.register('disconnect', 'redis', async () => {
    await redis.quit();
  });
  const heartbeat = await startHeartbeat({ redis, info, logger });
  shutdown.register('stop-intake', 'heartbeat', () => heartbeat.stop());
  shutdown.register('flush', 'logger', async () => logger.flush());
  logger.info({ worker: info, heartbeatKey: heartbeat.key }, 'worker ready');
} catch (error) {
  logger.fatal({ err: error }, 'worker failed to start');
  await shutdown.run('startup failed', 1);
}
