import {
  claimWebhookDelivery,
  disableWebhookEndpoint,
  recordInterruptedWebhookAttempt,
  recordWebhookAttemptOutcome,
  skipWebhookDelivery,
  type ClaimedWebhookDelivery,
  type Db,
  type PgPool,
  type SecretBox,
  type WebhookAttemptRecord,
} from '@looplane/db';
import { QUEUES, type WebhookJob } from '@looplane/queue';
import { retryDelayMs, sendWebhook, signedHeaders, type WebhookAttemptOutcome } from '@looplane/webhooks';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface DeliveryProcessorOptions {
  pool: PgPool;
  /** Prisma over the same pool, for the one write with an audit row (disabling an endpoint). */
  db: Db;
  redis: Redis;
  queuePrefix: string;
  workerId: string;
  /** Opens the endpoints' signing secrets (LOOPLANE_ENCRYPTION_KEY); without it every attempt fails saying so. */
  secretBox: SecretBox | null;
  allowPrivate: boolean;
  concurrency: number;
  attemptTimeoutMs: number;
  /** Multiplies the retry schedule (1 in production). */
  retryScale: number;
  /** An endpoint failing this long with nothing delivered is disabled. */
  disableAfterMs: number;
  /** BullMQ's job lock: a job whose worker died is taken over once it lapses (checked every `stalledIntervalMs`). */
  lockDurationMs: number;
  stalledIntervalMs: number;
  logger: Logger;
}

/** "24 h", "30 min", "0.3 s": the disable window in an audit row's words. */
function duration(ms: number): string {
  if (ms >= 3_600_000) return `${+(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 1000).toFixed(1)} s`;
}

/**
 * The webhooks queue's consumer: one attempt per job run. It claims the delivery (a lease of one
 * attempt's length, so no other worker sends it meanwhile), signs the body for this attempt and
 * sends it, records the attempt, and either finishes the job (delivered, failed for good) or
 * moves it back to delayed until the next attempt of the schedule. An endpoint failing for the
 * disable window (or answering 410 Gone) is disabled, with an audit row saying so.
 */
export class DeliveryProcessor {
  private readonly worker: Worker<WebhookJob>;
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly options: DeliveryProcessorOptions) {
    this.worker = new Worker<WebhookJob>(QUEUES.webhooks.name, (job, token) => this.process(job, token), {
      connection: options.redis,
      prefix: options.queuePrefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      autorun: false,
      name: `${options.workerId}/webhooks`,
    });
    this.worker.on('failed', (job, error) =>
      options.logger.warn({ err: error, deliveryId: job?.data.deliveryId, attempts: job?.attemptsMade }, 'webhook job failed'),
    );
    this.worker.on('error', (error) => options.logger.warn({ err: error }, 'webhook queue worker error'));
  }

  async start(): Promise<void> {
    void this.worker.run();
    await this.worker.waitUntilReady();
  }

  /**
   * Stops taking jobs and waits up to `drainMs` for attempts in flight; those still running are
   * aborted, recorded without an outcome and given back (due now, for any worker's dispatcher).
   */
  async close(drainMs: number): Promise<void> {
    const closing = this.worker.close();
    const hard = setTimeout(() => {
      for (const controller of this.inFlight) controller.abort();
    }, drainMs);
    try {
      await closing;
    } finally {
      clearTimeout(hard);
    }
  }

  private async process(job: Job<WebhookJob>, token: string | undefined): Promise<void> {
    const { deliveryId } = QUEUES.webhooks.schema.parse(job.data);
    const { pool } = this.options;
    const claim = await claimWebhookDelivery(pool, deliveryId, this.options.attemptTimeoutMs + 5000);
    if (claim.kind === 'done') return;
    if (claim.kind === 'later') return this.delay(job, token, claim.waitMs);
    const delivery = claim.delivery;
    if (delivery.interrupted) await recordInterruptedWebhookAttempt(pool, delivery.id, delivery.interrupted.at);
    if (delivery.disabled) return skipWebhookDelivery(pool, delivery.id);
    const record = await this.attempt(delivery);
    const recorded = await recordWebhookAttemptOutcome(pool, record);
    const log = this.options.logger.child({ deliveryId: delivery.id, teamId: delivery.teamId, webhookId: delivery.endpointId });
    if (record.next.kind !== 'delivered') log.info({ statusCode: record.statusCode, error: record.error, next: record.next }, 'webhook attempt failed');
    if (record.judgesEndpoint && record.next.kind !== 'delivered' && recorded) {
      const gone = record.statusCode === 410;
      if (gone || (recorded.failingForMs ?? 0) >= this.options.disableAfterMs) {
        const reason = gone
          ? 'the endpoint answered 410 Gone'
          : `every attempt failed for ${duration(this.options.disableAfterMs)} (since ${recorded.failingSince}), the last: ${record.error}`;
        if (
          await disableWebhookEndpoint(this.options.db, { id: delivery.endpointId, teamId: delivery.teamId }, reason, {
            failingSince: recorded.failingSince,
            deliveryId: delivery.id,
          })
        ) {
          log.warn({ reason }, 'webhook endpoint disabled');
        }
        return;
      }
    }
    if (recorded?.status === 'pending' && record.next.kind === 'retry') return this.delay(job, token, record.next.retryInMs);
  }

  /** Back to delayed until `ms` from now: the same job (same id) runs the next attempt. */
  private async delay(job: Job<WebhookJob>, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }

  /** Signs and sends one attempt; says what comes next. */
  private async attempt(delivery: ClaimedWebhookDelivery): Promise<WebhookAttemptRecord> {
    const startedAt = new Date();
    let secret: string | null = null;
    let openError: string | null = null;
    if (!this.options.secretBox) openError = 'this worker has no LOOPLANE_ENCRYPTION_KEY to open the signing secret';
    else {
      try {
        secret = this.options.secretBox.open(delivery.secretCiphertext);
      } catch {
        openError = "the signing secret cannot be opened with this worker's LOOPLANE_ENCRYPTION_KEY";
      }
    }
    let outcome: WebhookAttemptOutcome;
    if (secret === null) {
      outcome = { delivered: false, statusCode: null, latencyMs: 0, responseExcerpt: null, error: openError, aborted: false };
    } else {
      const controller = new AbortController();
      this.inFlight.add(controller);
      try {
        const headers = signedHeaders(secret, delivery.id, Math.floor(startedAt.getTime() / 1000), delivery.body);
        outcome = await sendWebhook({
          url: delivery.url,
          body: delivery.body,
          headers,
          allowPrivate: this.options.allowPrivate,
          timeoutMs: this.options.attemptTimeoutMs,
          signal: controller.signal,
        });
      } finally {
        this.inFlight.delete(controller);
      }
    }
    const step = delivery.scheduleStep + 1;
    const retryInMs = retryDelayMs(step, this.options.retryScale);
    const next: WebhookAttemptRecord['next'] = outcome.delivered
      ? { kind: 'delivered' }
      : outcome.aborted
        ? { kind: 'interrupted' }
        : retryInMs === null
          ? { kind: 'failed', step }
          : { kind: 'retry', retryInMs, step };
    return {
      id: delivery.id,
      startedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      responseExcerpt: outcome.responseExcerpt,
      error: outcome.error,
      next,
      // Our own failures (no key, a stopped worker) say nothing about the endpoint.
      judgesEndpoint: secret !== null && !outcome.aborted,
    };
  }
}
