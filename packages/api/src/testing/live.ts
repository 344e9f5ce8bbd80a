import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createSessionQueue, LiveBus, type SessionJob } from '@looplane/queue';
import { createDispatch, type Dispatch } from '../dispatch';

/** Redis for integration tests (like Postgres, a real one: never a mock of our own infrastructure). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestLive {
  dispatch: Dispatch;
  bus: LiveBus;
  /** The sessions queue under a prefix of its own, so test files never see each other's jobs. */
  queue: Queue<SessionJob>;
  /** Every job waiting in the queue, oldest first. */
  jobs(): Promise<SessionJob[]>;
  /** Errors the dispatch swallowed (a test expects none). */
  errors: unknown[];
  close(): Promise<void>;
}

/** A real BullMQ queue (a unique prefix, or `prefix` to share a worker's queue) and live bus on the test Redis. */
export async function createTestLive(options: { prefix?: string } = {}): Promise<TestLive> {
  const publisher = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const subscriber = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const queue = createSessionQueue(publisher, { prefix: options.prefix ?? `looplane-test-${randomBytes(6).toString('hex')}` });
  const bus = new LiveBus(publisher, subscriber);
  const errors: unknown[] = [];
  const dispatch = createDispatch(queue, bus, { onError: (error) => errors.push(error) });
  return {
    dispatch,
    bus,
    queue,
    errors,
    async jobs() {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized'], 0, -1, true);
      return jobs.map((job) => job.data);
    },
    async close() {
      await queue.obliterate({ force: true });
      await queue.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
