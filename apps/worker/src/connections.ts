import { createPgPool, proveDatabaseConnection, type PgPool } from '@looplane/db';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The runtime's Postgres pool, proven with `SELECT 1` so a wrong DATABASE_URL fails at boot
 * rather than on the first job. Errors of idle connections (a Postgres restart) are logged; the
 * pool reconnects on demand.
 */
export async function connectDatabase(url: string, logger: Logger, max: number): Promise<PgPool> {
  const pool = createPgPool(url, { max, onError: (error) => logger.warn({ err: error }, 'postgres connection error') });
  try {
    await proveDatabaseConnection(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return pool;
}

/**
 * Connects to Redis. `maxRetriesPerRequest: null` is what BullMQ requires of the connections its
 * workers use; after boot, connection errors are logged and ioredis reconnects by itself.
 * `failFast` (the live bus publisher) refuses commands while disconnected instead of queueing them.
 */
export async function connectRedis(url: string, logger: Logger, options: { failFast?: boolean } = {}): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: options.failFast ? 1 : null,
    enableOfflineQueue: !options.failFast,
    // The live bus publishes after every commit of hundreds of loops: one write per tick, not per message.
    enableAutoPipelining: options.failFast ?? false,
  });
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
