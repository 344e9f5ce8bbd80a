import { appendAudit } from '../audit/audit.repository';
import type { Db } from '../client';
import { skipPendingWebhookDeliveries } from './pending-skip.repository';

/**
 * Disables an endpoint (once: an endpoint already disabled is left as it is), skips its pending
 * deliveries, and writes the audit row saying why, in one transaction. Returns whether this call
 * disabled it.
 *
 * Lock order: the endpoint row (its update, which also makes a second disable wait and find it
 * disabled) before its delivery rows (the skip, in id order), the order every writer of both
 * takes them in: the attempt outcome (delivery-attempts.repository.ts), the API's update and delete.
 */
export async function disableWebhookEndpoint(
  db: Db,
  endpoint: { id: string; teamId: string },
  reason: string,
  data: Record<string, unknown>,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const changed = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, disabledAt: null }, data: { disabledAt: now, disabledReason: reason } });
    if (changed.count === 0) return false;
    const skipped = await skipPendingWebhookDeliveries(tx, endpoint.id, now);
    const { url } = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id }, select: { url: true } });
    await appendAudit(tx, {
      teamId: endpoint.teamId,
      actor: { type: 'system', name: 'webhooks' },
      action: 'webhook.disabled',
      targetType: 'webhook',
      targetId: endpoint.id,
      data: { url, reason, skippedDeliveries: skipped, ...data },
    });
    return true;
  });
}
