import { dispatchWebhookOutbox, markWebhookDeliveriesEnqueued, unqueuedWebhookDeliveries, type PgPool } from '@looplane/db';
import { ensureWebhookJob, type WebhookJob } from '@looplane/queue';
import { newDeliveryId, webhookBody, withDashboardLinks } from '@looplane/webhooks';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

export interface OutboxDispatcherOptions {
  pool: PgPool;
  queue: Queue<WebhookJob>;
  /** LOOPLANE_PUBLIC_URL or NEXTAUTH_URL: the dashboard links in payloads (none without it). */
  publicUrl: string | null;
  logger: Logger;
  /** Outbox rows (and unqueued deliveries) per pass (default 200). */
  batch?: number;
}

/**
 * Turns outbox rows into deliveries, and deliveries into queue jobs (job id = delivery id, so
 * adding one twice is harmless). Each delivery's body is built here, once: every attempt sends
 * the same bytes. A process that dies after the commit and before the jobs were added leaves the
 * deliveries unqueued, and the next pass (of any worker) adds them.
 */
export class OutboxDispatcher {
  constructor(private readonly options: OutboxDispatcherOptions) {}

  /** One pass; returns how many deliveries were made and how many jobs added. */
  async pass(): Promise<{ made: number; queued: number }> {
    const made = await this.dispatch();
    const queued = await this.enqueue();
    return { made, queued };
  }

  private async dispatch(): Promise<number> {
    const { pool, publicUrl } = this.options;
    return dispatchWebhookOutbox(pool, this.options.batch ?? 200, (taken) =>
      taken.flatMap((row) => {
        const data = withDashboardLinks(row.type, row.data, { slug: row.slug ?? row.teamId }, publicUrl);
        const body = webhookBody(row.type, row.at, data);
        return row.endpointIds.map((endpointId) => ({ id: newDeliveryId(), teamId: row.teamId, endpointId, outboxId: row.id, eventType: row.type, body }));
      }),
    );
  }

  private async enqueue(): Promise<number> {
    const { pool, queue } = this.options;
    const due = await unqueuedWebhookDeliveries(pool, this.options.batch ?? 200);
    for (const { id, dueInMs } of due) await ensureWebhookJob(queue, id, dueInMs);
    if (due.length > 0)
      await markWebhookDeliveriesEnqueued(
        pool,
        due.map((d) => d.id),
      );
    return due.length;
  }
}
