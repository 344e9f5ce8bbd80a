import 'server-only';
import { pingDatabase } from '@looplane/db';
import { db } from './db';
import { logger } from './logger';
import { redis } from './redis';

export type Probe = 'up' | 'down';

/** Each dependency gets this long to answer; /api/health must never hang. */
const PROBE_TIMEOUT_MS = 1500;

async function probe(name: string, check: () => Promise<unknown>): Promise<Probe> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'up';
  } catch (error) {
    logger().warn({ dependency: name, err: error instanceof Error ? error.message : String(error) }, 'health probe failed');
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** Probes Postgres and Redis in parallel. */
export async function checkHealth(): Promise<{ database: Probe; redis: Probe }> {
  const [database, cache] = await Promise.all([probe('database', () => pingDatabase(db())), probe('redis', () => redis().ping())]);
  return { database, redis: cache };
}
