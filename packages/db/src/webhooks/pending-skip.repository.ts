import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

// Lock order: after the endpoint row (the caller's update of it), its pending deliveries in
// ascending id order (`locked`), as every writer of many deliveries takes them (the dispatcher's
// mark, delivery-queue.repository.ts). Updated in the order a plan visited them, a disable and a
// mark sharing rows deadlocked. NO KEY UPDATE: the strength the UPDATE takes anyway.
const SKIP_PENDING_SQL = namedQuery({
  name: 'looplane_webhook_skip_pending_v1',
  params: { endpoint_id: param.text, at: param.timestamptz },
  text: `
WITH locked AS MATERIALIZED (
  SELECT id FROM "WebhookDelivery" WHERE "endpointId" = :endpoint_id AND status = 'pending' ORDER BY id FOR NO KEY UPDATE
)
UPDATE "WebhookDelivery" d SET status = 'skipped', "nextAttemptAt" = NULL, "updatedAt" = :at AT TIME ZONE 'UTC'
FROM locked WHERE d.id = locked.id AND d.status = 'pending'`,
});

/**
 * Marks an endpoint's pending deliveries skipped (a disabled endpoint gets nothing), inside the
 * caller's transaction, which has already updated the endpoint row. `at` is their `updatedAt`.
 * Returns how many it skipped.
 */
export async function skipPendingWebhookDeliveries(tx: Tx, endpointId: string, at: Date): Promise<number> {
  const skip = SKIP_PENDING_SQL.bind({ endpoint_id: endpointId, at });
  return tx.$executeRawUnsafe(skip.text, ...skip.values);
}
