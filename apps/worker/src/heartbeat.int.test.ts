import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startHeartbeat, WORKER_KEY_PREFIX, type WorkerInfo } from './heartbeat';
import { createLogger } from './logger';

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const logger = createLogger({ level: 'silent' });

afterAll(async () => {
  await redis.quit();
});

function info(): WorkerInfo {
  return { id: `test_${Math.random().toString(36).slice(2)}`, hostname: 'h', pid: 1, startedAt: new Date().toISOString(), version: '0.0.0', concurrency: 5 };
}

describe('startHeartbeat', () => {
  it('writes the worker key with a TTL, refreshes it, and deletes it on stop', async () => {
    const worker = info();
    const heartbeat = await startHeartbeat({ redis, info: worker, logger, intervalMs: 100, ttlSeconds: 2 });
    expect(heartbeat.key).toBe(`${WORKER_KEY_PREFIX}${worker.id}`);
    const first = JSON.parse((await redis.get(heartbeat.key))!);
    expect(first).toMatchObject(worker);
    expect(await redis.ttl(heartbeat.key)).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 350));
    const later = JSON.parse((await redis.get(heartbeat.key))!);
    expect(Date.parse(later.beatAt)).toBeGreaterThan(Date.parse(first.beatAt));

    await heartbeat.stop();
    expect(await redis.exists(heartbeat.key)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await redis.exists(heartbeat.key)).toBe(0);
  });

  it('lets the key expire when the worker stops beating without cleaning up', async () => {
    const heartbeat = await startHeartbeat({ redis, info: info(), logger, intervalMs: 60_000, ttlSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await redis.exists(heartbeat.key)).toBe(0);
    await heartbeat.stop();
  });
});
