import 'server-only';
import { createSessionQueue } from '@looplane/queue';
import { Registry, registerClusterMetrics } from '@looplane/telemetry';
import { env } from '@/env';
import { db } from '@/server/db';
import { redis } from '@/server/redis';

// One registry per process (on globalThis so `next dev` reloads do not register metrics twice).
const holder = globalThis as typeof globalThis & { __looplaneMetrics?: Registry };

/** The web process's Prometheus registry: the cluster gauges, read from Postgres and the queue. */
export function metricsRegistry(): Registry {
  if (!holder.__looplaneMetrics) {
    const registry = new Registry();
    const prefix = env().QUEUE_PREFIX;
    const queue = createSessionQueue(redis(), prefix ? { prefix } : {});
    queue.on('error', () => undefined); // the shared connection logs Redis outages
    registerClusterMetrics(registry, {
      db: db(),
      queueCounts: () => queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
    });
    holder.__looplaneMetrics = registry;
  }
  return holder.__looplaneMetrics;
}
