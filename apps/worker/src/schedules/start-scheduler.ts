import { createDispatch, type ScheduleFireDeps } from '@looplane/api/scheduler';
import { createDbOnPool, type PgPool } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import { LiveBus, createSessionQueue } from '@looplane/queue';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ScheduleLoop } from './schedule-loop';

export interface SchedulerOptions {
  pool: PgPool;
  /** The queue's connection (a tick's run is enqueued like any new run). */
  redis: Redis;
  /** Live bus connections: a new run is announced to the team's dashboards. */
  publisher: Redis;
  subscriber: Redis;
  queuePrefix: string;
  /** LOOPLANE_SCHEDULER_POLL_MS. */
  maxSleepMs: number;
  /** Batches of due schedules fired at once; each holds one of the pool's connections while its runs are made on others. */
  parallel: number;
  /** The team run-start limits a tick's run counts against (as the web app's). */
  runLimits: { perMinute: number; maxQueued: number };
  logger: Logger;
  clock?: Clock;
}

/**
 * Starts this worker's scheduler: ticks become runs through the API's own run services (budget,
 * workspace, policy, run-start limits, audit, queueing), so a scheduled run is made exactly as
 * `runs.create` makes one. `stop` lets the pass in flight finish, then closes the queue producer.
 */
export function startScheduler(options: SchedulerOptions): { stop(): Promise<void> } {
  const { logger } = options;
  const log = logger.child({ component: 'scheduler' });
  const queue = createSessionQueue(options.redis, { prefix: options.queuePrefix });
  queue.on('error', (error) => log.warn({ err: error }, 'scheduler queue producer error'));
  const dispatch = createDispatch(queue, new LiveBus(options.publisher, options.subscriber), {
    // Postgres holds the run: a lost wake-up is the reconciler's to repair.
    onError: (error, what) => log.warn({ err: error, what }, 'scheduled run side effect failed'),
  });
  const fire: ScheduleFireDeps = {
    db: createDbOnPool(options.pool),
    dispatch,
    runLimits: options.runLimits,
    clock: options.clock ?? { now: () => Date.now() },
    onError: (error, what) => log.warn({ err: error, what }, 'scheduler step failed'),
  };
  const loop = new ScheduleLoop({ fire, pool: options.pool, maxSleepMs: options.maxSleepMs, parallel: options.parallel, logger: log });
  loop.start();
  return {
    async stop() {
      await loop.stop();
      await queue.close().catch((error: unknown) => log.warn({ err: error }, 'scheduler queue close failed'));
    },
  };
}
