import { createDb, type Db } from '@looplane/db';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Connects to Postgres and proves it with `SELECT 1`, so a wrong DATABASE_URL fails at boot
 * rather than on the first job.
 */
export async function connectDatabase(url: string): Promise<Db> {
  const db = createDb(url);
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (error) {
    await db.$disconnect().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Connects to Redis. `maxRetriesPerRequest: null` is what BullMQ requires of the connections its
 * workers use; after boot, connection errors are logged and ioredis reconnects by itself.
 */
export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
  let connected = false;
  redis.on('error', (error: Error) => {
    if (connected) logger.warn({ err: error }, 'redis connection error');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  connected = true;
  return redis;
}
