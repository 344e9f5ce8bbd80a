import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callerAs } from '@looplane/api/testing';
import type { Dispatch } from '@looplane/api';
import { createPgPool, SecretBox, type Db, type PgPool } from '@looplane/db';
import { Redis } from 'ioredis';
import { createLogger } from '../logger';
import { startWebhooks, type Webhooks, type WebhooksOptions } from '../webhooks/start-webhooks';
import { testRedisUrl } from './test-runtime';

/** The key that seals endpoint secrets in webhook tests (the API seals with it, the worker opens with it). */
const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');

/** What the tests' webhooks run with: the schedule in milliseconds (5 ms, 30 ms, 120 ms, …), quick polls. */
export const FAST_WEBHOOKS = { pollIntervalMs: 50, sweepIntervalMs: 500, retryScale: 0.001, attemptTimeoutMs: 2000, stalledIntervalMs: 500 } as const;

export interface TestWebhooks {
  webhooks: Webhooks;
  pool: PgPool;
  close(): Promise<void>;
}

/** The worker's webhook delivery in-process, against a test database and the test Redis under `prefix`. */
export async function startTestWebhooks(databaseUrl: string, prefix: string, options: Partial<WebhooksOptions> = {}): Promise<TestWebhooks> {
  const pool = createPgPool(databaseUrl, { max: 6 });
  const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const webhooks = await startWebhooks({
    pool,
    redis,
    queuePrefix: prefix,
    workerId: `w_hooks_${randomBytes(3).toString('hex')}`,
    encryptionKey: TEST_ENCRYPTION_KEY,
    allowPrivate: true,
    publicUrl: 'https://looplane.example.test',
    logger: createLogger({ level: 'silent' }),
    ...FAST_WEBHOOKS,
    ...options,
  });
  return {
    webhooks,
    pool,
    async close() {
      await webhooks.close();
      await pool.end();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

const processEntry = fileURLToPath(new URL('./webhooks-process.ts', import.meta.url));

/**
 * The same delivery in a process of its own (through tsx), which a test can kill with SIGKILL:
 * nothing it held is released. Resolves once its processor takes jobs.
 */
export async function spawnWebhooksProcess(config: {
  databaseUrl: string;
  prefix: string;
  lockDurationMs: number;
  attemptTimeoutMs: number;
}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', processEntry], {
    env: { PATH: process.env.PATH ?? '', LOOPLANE_TEST_WEBHOOKS: JSON.stringify({ ...config, redisUrl: testRedisUrl, encryptionKey: TEST_ENCRYPTION_KEY }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the webhooks process did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('webhooks ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the webhooks process exited (${code}): ${output}`)));
  });
  return child;
}

/** An admin of the team (made for the test) calling the real API, which seals secrets with {@link TEST_ENCRYPTION_KEY}. */
export async function webhookAdmin(db: Db, dispatch: Dispatch, teamId: string) {
  const user = await db.user.create({ data: { email: `hooks-admin-${randomBytes(4).toString('hex')}@example.test` } });
  await db.membership.create({ data: { teamId, userId: user.id, role: 'admin' } });
  const deps = { db, dispatch, secretBox: new SecretBox(TEST_ENCRYPTION_KEY), webhooks: { allowPrivate: true } };
  return { userId: user.id, api: await callerAs(deps, { userId: user.id }) };
}
