import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

// Lock order: the endpoint row (`endpoint`), then its deliveries in ascending id order (`locked`),
// as every writer of many deliveries takes them (the dispatcher's mark, the disable's skip); only
// then the delete, whose foreign-key cascade finds them locked already. Left to the cascade, they
// were locked in the order its plan visited them, and a delete deadlocked with a mark. Each WHERE
// reads the CTE before it (a count, always true), so the locks are taken in this order. FOR
// UPDATE is the strength the delete and its cascade take anyway.
const DELETE_ENDPOINT_SQL = namedQuery({
  name: 'looplane_webhook_endpoint_delete_v1',
  params: { endpoint_id: param.text },
  text: `
WITH endpoint AS MATERIALIZED (
  SELECT id FROM "WebhookEndpoint" WHERE id = :endpoint_id FOR UPDATE
), locked AS MATERIALIZED (
  SELECT id FROM "WebhookDelivery" WHERE "endpointId" = :endpoint_id AND (SELECT count(*) FROM endpoint) >= 0 ORDER BY id FOR UPDATE
)
DELETE FROM "WebhookEndpoint" WHERE id = :endpoint_id AND (SELECT count(*) FROM locked) >= 0`,
});

/**
 * Deletes an endpoint with its deliveries (the foreign key cascades to them and their attempts),
 * inside the caller's transaction. Returns whether it was there to delete.
 */
export async function deleteWebhookEndpoint(tx: Tx, endpointId: string): Promise<boolean> {
  const remove = DELETE_ENDPOINT_SQL.bind({ endpoint_id: endpointId });
  return (await tx.$executeRawUnsafe(remove.text, ...remove.values)) > 0;
}
