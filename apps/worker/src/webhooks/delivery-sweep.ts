import type { PgPool } from '@looplane/db';
import { ensureWebhookJob, type WebhookJob } from '@looplane/queue';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

// Pending deliveries that had a job, are overdue by more than the grace, and are not being
// attempted: their job may be gone (Redis lost it, a processor failed it for good).
const OVERDUE_SQL = `
SELECT id FROM "WebhookDelivery"
WHERE status = 'pending' AND "enqueuedAt" IS NOT NULL
  AND "nextAttemptAt" < timezone('UTC', now()) - $1::int * interval '1 millisecond'
  AND ("leaseUntil" IS NULL OR "leaseUntil" < timezone('UTC', now()))
ORDER BY "nextAttemptAt" LIMIT $2`;

export interface DeliverySweepOptions {
  pool: PgPool;
  queue: Queue<WebhookJob>;
  /** How overdue a delivery must be before its job is looked for. */
  graceMs: number;
  logger: Logger;
  batch?: number;
}

/**
 * Postgres owns the truth, the queue only delivers: a pending delivery whose job went missing
 * gets one again (a job still waiting, delayed or being processed is left alone). With this, a
 * process killed at any point loses no delivery.
 */
export class DeliverySweep {
  constructor(private readonly options: DeliverySweepOptions) {}

  /** One pass; returns how many jobs were added back. */
  async pass(): Promise<number> {
    const { pool, queue, logger } = this.options;
    const overdue = (await pool.query({ name: 'looplane_webhook_overdue_v1', text: OVERDUE_SQL, values: [this.options.graceMs, this.options.batch ?? 500] }))
      .rows as { id: string }[];
    let added = 0;
    for (const { id } of overdue) if (await ensureWebhookJob(queue, id)) added++;
    if (added > 0) logger.info({ deliveries: added }, 'webhook sweep re-enqueued deliveries whose job was missing');
    return added;
  }
}
