import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, webhookJobSchema, type WebhookJob } from './catalog';

/** The producer side of the webhooks queue (the worker's dispatcher and sweep). */
export function createWebhookQueue(connection: ConnectionOptions, options: { prefix?: string } = {}): Queue<WebhookJob> {
  return new Queue<WebhookJob>(QUEUES.webhooks.name, {
    connection,
    defaultJobOptions: QUEUES.webhooks.options,
    ...(options.prefix ? { prefix: options.prefix } : {}),
  });
}

/**
 * Makes sure a delivery has a job due in `delayMs`, idempotently: a job already waiting or being
 * processed is left alone, a delayed one is brought forward when the delivery is due now (a
 * redelivery), and a finished one (kept by BullMQ after a processor failure) is replaced. Returns
 * whether a job was added.
 */
export async function ensureWebhookJob(queue: Queue<WebhookJob>, deliveryId: string, delayMs = 0): Promise<boolean> {
  const data = webhookJobSchema.parse({ deliveryId });
  const existing = await queue.getJob(deliveryId);
  if (existing) {
    const state = await existing.getState();
    if (state === 'delayed') {
      if (delayMs <= 0) await existing.promote().catch(() => undefined);
      return false;
    }
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return false;
    await existing.remove().catch(() => undefined);
  }
  await queue.add('deliver', data, { jobId: deliveryId, ...(delayMs > 0 ? { delay: delayMs } : {}) });
  return true;
}
