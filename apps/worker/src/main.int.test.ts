import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePrefix } from './testing/test-runtime';

/** The real worker process against the real Postgres and Redis. */

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const workerDir = fileURLToPath(new URL('..', import.meta.url));
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
let t: TestDatabase;
let databaseUrl: string;

beforeAll(async () => {
  t = await createTestDatabase();
  databaseUrl = t.url;
});

afterAll(async () => {
  await redis.quit();
  await t?.drop();
});

function runWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: workerDir,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker process', () => {
  it('announces itself with a heartbeat key and removes it on SIGTERM, exiting 0', async () => {
    const worker = runWorker({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'info', QUEUE_PREFIX: uniquePrefix('main') });
    const ready = await until(() => {
      const line = worker
        .stdout()
        .split('\n')
        .find((l) => l.includes('"worker ready"'));
      return line ? (JSON.parse(line) as { heartbeatKey: string; worker: { pid: number } }) : undefined;
    }, 30_000);
    expect(ready.worker.pid).toBe(worker.child.pid);
    const stored = JSON.parse((await redis.get(ready.heartbeatKey))!);
    expect(stored).toMatchObject({ pid: worker.child.pid, concurrency: 50 });
    expect(worker.stdout()).not.toContain(databaseUrl);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await redis.exists(ready.heartbeatKey)).toBe(0);
    const messages = worker
      .stdout()
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages.slice(-2)).toEqual(['shutting down', 'worker stopped']);
  });

  it('prints one line naming the variable and exits 1 when the env is invalid', async () => {
    const worker = runWorker({ DATABASE_URL: 'postgresql://u@127.0.0.1:5432/x', REDIS_URL: 'localhost:6379' });
    expect(await worker.exited).toBe(1);
    expect(worker.stderr()).toBe('Invalid environment: REDIS_URL must be a redis:// or rediss:// URL\n');
  });

  it('exits 1 with a credential-free message when Postgres cannot be reached', async () => {
    const worker = runWorker({ DATABASE_URL: 'postgresql://app:hunter2@127.0.0.1:1/none', REDIS_URL: redisUrl });
    expect(await worker.exited).toBe(1);
    expect(worker.stdout()).toContain('worker failed to start');
    expect(worker.stdout()).not.toContain('hunter2');
  });
});
