import { createPgPool } from '@looplane/db';
import { Redis } from 'ioredis';
import { createLogger } from '../logger';
import { startWebhooks } from '../webhooks/start-webhooks';
import { FAST_WEBHOOKS } from './webhook-stack';

// A webhooks-only worker process for the crash test (spawnWebhooksProcess): its settings come in
// LOOPLANE_TEST_WEBHOOKS (JSON), and it runs until it is killed.
const config = JSON.parse(process.env.LOOPLANE_TEST_WEBHOOKS ?? '{}') as {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  encryptionKey: string;
  lockDurationMs: number;
  attemptTimeoutMs: number;
};
const pool = createPgPool(config.databaseUrl, { max: 4 });
const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
await startWebhooks({
  pool,
  redis,
  queuePrefix: config.prefix,
  workerId: 'w_hooks_child',
  encryptionKey: config.encryptionKey,
  allowPrivate: true,
  publicUrl: null,
  logger: createLogger({ level: 'silent' }),
  ...FAST_WEBHOOKS,
  lockDurationMs: config.lockDurationMs,
  attemptTimeoutMs: config.attemptTimeoutMs,
});
process.stdout.write('webhooks ready\n');
