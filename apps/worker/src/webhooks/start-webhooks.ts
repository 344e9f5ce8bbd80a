import { createDbOnPool, SecretBox, type PgPool } from '@looplane/db';
import { createWebhookQueue } from '@looplane/queue';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, WEBHOOK_DISABLE_AFTER_MS } from '@looplane/webhooks';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Periodic } from '../runtime/periodic';
import { DeliveryProcessor } from './delivery-processor';
import { DeliverySweep } from './delivery-sweep';
import { OutboxDispatcher } from './outbox-dispatcher';

export interface WebhooksOptions {
  pool: PgPool;
  /** BullMQ's connection (the processor duplicates it for its blocking reads). */
  redis: Redis;
  queuePrefix: string;
  workerId: string;
  /** Opens signing secrets; unset: attempts fail saying the key is missing. */
  encryptionKey: string | undefined;
  /** LOOPLANE_WEBHOOKS_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** The dashboard's public URL, for links in payloads (null: no links). */
  publicUrl: string | null;
  logger: Logger;
  /** Attempts in flight at once per worker (default 20). */
  concurrency?: number;
  /** How often the outbox is read (default 1 s). */
  pollIntervalMs?: number;
  /** How often pending deliveries are checked for a missing job (default 30 s). */
  sweepIntervalMs?: number;
  /** Multiplies the retry schedule (default 1; tests run it in milliseconds). */
  retryScale?: number;
  attemptTimeoutMs?: number;
  /** Failing this long with nothing delivered disables an endpoint (default 24 h). */
  disableAfterMs?: number;
  /** BullMQ's job lock and stalled check (default 30 s each): how soon a dead worker's job is taken over. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** On shutdown, how long attempts in flight may finish before they are aborted (default 5 s). */
  drainMs?: number;
}

export interface Webhooks {
  /** Shutdown phase 1: no more outbox reads, sweeps or jobs; attempts in flight get the drain time. */
  stopIntake(): Promise<void>;
  /** Shutdown phase 2: attempts in flight have finished or been given back; the queue is closed. */
  close(): Promise<void>;
}

/**
 * Webhook delivery in the worker: the outbox dispatcher, the delivery processor and the sweep.
 *
 * The dispatcher polls the outbox (every `pollIntervalMs`) rather than LISTENing: a poll of an
 * empty outbox is one index probe, it needs no connection held per worker, works through any
 * connection pooler, and cannot miss a notice sent while a worker was down or reconnecting, so
 * it would be needed as the fallback anyway; a second of latency is nothing for a webhook.
 */
export async function startWebhooks(options: WebhooksOptions): Promise<Webhooks> {
  const { pool, logger } = options;
  const log = logger.child({ component: 'webhooks' });
  const queue = createWebhookQueue(options.redis, { prefix: options.queuePrefix });
  queue.on('error', (error) => log.warn({ err: error }, 'webhook queue producer error'));
  const dispatcher = new OutboxDispatcher({ pool, queue, publicUrl: options.publicUrl, logger: log });
  const sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
  const sweep = new DeliverySweep({ pool, queue, graceMs: sweepIntervalMs, logger: log });
  const processor = new DeliveryProcessor({
    pool,
    db: createDbOnPool(pool),
    redis: options.redis,
    queuePrefix: options.queuePrefix,
    workerId: options.workerId,
    secretBox: options.encryptionKey ? new SecretBox(options.encryptionKey) : null,
    allowPrivate: options.allowPrivate,
    concurrency: options.concurrency ?? 20,
    attemptTimeoutMs: options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    retryScale: options.retryScale ?? 1,
    disableAfterMs: options.disableAfterMs ?? WEBHOOK_DISABLE_AFTER_MS,
    lockDurationMs: options.lockDurationMs ?? 30_000,
    stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
    logger: log,
  });
  const report = (what: string) => (error: unknown) => {
    log.warn({ err: error }, `webhook ${what} failed`);
  };
  const polling = new Periodic(options.pollIntervalMs ?? 1000, () => dispatcher.pass().catch(report('dispatch')));
  const sweeping = new Periodic(sweepIntervalMs, () => sweep.pass().catch(report('sweep')));
  await processor.start();
  polling.start();
  sweeping.start();

  // Stopping intake also starts the processor's drain, so it runs alongside the session loops'.
  let draining: Promise<void> | null = null;
  let closed: Promise<void> | null = null;
  const stopIntake = async () => {
    await polling.stop();
    await sweeping.stop();
    draining ??= processor.close(options.drainMs ?? 5000);
  };
  return {
    stopIntake,
    close() {
      closed ??= (async () => {
        await stopIntake();
        await draining;
        await queue.close();
      })();
      return closed;
    },
  };
}
