import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Live workers are the keys `looplane:worker:<id>`: each holds {@link WorkerInfo} as JSON and
 * expires unless refreshed, so a crashed worker disappears from the dashboard within the TTL.
 */
export const WORKER_KEY_PREFIX = 'looplane:worker:';

/** What a worker says about itself in its heartbeat key. */
export interface WorkerInfo {
  id: string;
  hostname: string;
  pid: number;
  /** ISO time the process started. */
  startedAt: string;
  version: string;
  concurrency: number;
  /** The sandbox drivers it offers, its default first (LOOPLANE_SANDBOX_DRIVER, LOOPLANE_SANDBOX_DRIVERS). */
  drivers?: string[];
}

export interface HeartbeatOptions {
  redis: Redis;
  info: WorkerInfo;
  logger: Logger;
  /** How often the key is rewritten (default 5 s). */
  intervalMs?: number;
  /** Key lifetime; must cover a few missed beats (default 15 s). */
  ttlSeconds?: number;
}

export interface Heartbeat {
  readonly key: string;
  /** Stops beating and deletes the key, so the worker leaves the list at once. */
  stop(): Promise<void>;
}

/**
 * Writes the heartbeat key once (rejecting if Redis cannot take it, so a worker that cannot be
 * seen does not start), then refreshes it every `intervalMs`. A failed refresh is logged and
 * retried on the next tick: a short Redis outage must not kill the worker.
 */
export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const key = `${WORKER_KEY_PREFIX}${options.info.id}`;
  const ttl = options.ttlSeconds ?? 15;
  const beat = () => options.redis.set(key, JSON.stringify({ ...options.info, beatAt: new Date().toISOString() }), 'EX', ttl);
  await beat();

  let inFlight: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = beat().catch((error: unknown) => options.logger.warn({ err: error, key }, 'heartbeat refresh failed'));
  }, options.intervalMs ?? 5000);
  timer.unref();

  let stopped = false;
  return {
    key,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await options.redis.del(key);
    },
  };
}
