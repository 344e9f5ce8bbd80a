import 'server-only';
import { Redis } from 'ioredis';
import { env } from '@/env';
import { logger } from './logger';

const holder = globalThis as typeof globalThis & { __looplaneRedis?: Redis };

/**
 * The process-wide Redis connection. Lazy (connects on first command) and fail-fast: a command
 * errors after one retry instead of queueing forever, so callers such as /api/health never hang.
 */
export function redis(): Redis {
  if (!holder.__looplaneRedis) {
    const client = new Redis(env().REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      connectTimeout: 1500,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // ioredis emits an error per reconnect attempt: log the outage once, and the recovery.
    let down = false;
    client.on('error', (error: Error) => {
      if (down) return;
      down = true;
      logger().warn({ err: error.message }, 'redis unavailable; reconnecting');
    });
    client.on('ready', () => {
      if (down) logger().info('redis reconnected');
      down = false;
    });
    holder.__looplaneRedis = client;
  }
  return holder.__looplaneRedis;
}
