import { overdueWebhookDeliveries, type PgPool } from '@looplane/db';
import { ensureWebhookJob, type WebhookJob } from '@looplane/queue';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

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
    const overdue = await overdueWebhookDeliveries(pool, this.options.graceMs, this.options.batch ?? 500);
    let added = 0;
    for (const id of overdue) if (await ensureWebhookJob(queue, id)) added++;
    if (added > 0) logger.info({ deliveries: added }, 'webhook sweep re-enqueued deliveries whose job was missing');
    return added;
  }
}
