import { withClient, type PgPool } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { UTC_NOW, isoUtc } from './utc-time';

/** One outbox row: an event for the endpoints that subscribed to it when it happened. */
export interface WebhookOutboxEvent {
  id: string;
  teamId: string;
  type: string;
  data: Record<string, unknown>;
  endpointIds: string[];
  /** When it happened (ISO UTC). */
  at: string;
  /** The team's slug (null: the team is gone). */
  slug: string | null;
}

/** A delivery to make of an outbox event, its body built once: every attempt sends the same bytes. */
export interface NewWebhookDelivery {
  id: string;
  teamId: string;
  endpointId: string;
  outboxId: string;
  eventType: string;
  body: string;
}

// Rows are taken with SKIP LOCKED, so the dispatchers of every worker share the outbox; a row is
// deleted in the transaction that makes its deliveries, so it is turned into them exactly once.
const TAKE_SQL = namedQuery({
  name: 'looplane_webhook_take_v2',
  params: { limit: param.int },
  text: `
WITH batch AS (SELECT id FROM "WebhookOutbox" ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED)
DELETE FROM "WebhookOutbox" o USING batch WHERE o.id = batch.id
RETURNING o.id::text AS id, o."teamId", o.type, o.data, o."endpointIds", ${isoUtc('o."createdAt"')} AS at,
  (SELECT t.slug FROM "Team" t WHERE t.id = o."teamId") AS slug`,
}).returns<WebhookOutboxEvent>();

// One delivery per (outbox row, endpoint): the unique key makes a repeat a no-op. An endpoint
// disabled since the event gets a skipped delivery (the log shows it); a deleted one gets none.
const INSERT_SQL = namedQuery({
  name: 'looplane_webhook_deliveries_v1',
  params: { deliveries: param.jsonb },
  text: `
INSERT INTO "WebhookDelivery" (id, "teamId", "endpointId", "outboxId", "eventType", body, status, "nextAttemptAt", "createdAt", "updatedAt")
SELECT x.id, x."teamId", x."endpointId", x."outboxId"::bigint, x."eventType", x.body,
  CASE WHEN e."disabledAt" IS NULL THEN 'pending' ELSE 'skipped' END::"WebhookDeliveryStatus",
  CASE WHEN e."disabledAt" IS NULL THEN ${UTC_NOW} END, ${UTC_NOW}, ${UTC_NOW}
FROM jsonb_to_recordset(:deliveries) AS x(id text, "teamId" text, "endpointId" text, "outboxId" text, "eventType" text, body text)
JOIN "WebhookEndpoint" e ON e.id = x."endpointId" AND e."teamId" = x."teamId"
ON CONFLICT ("outboxId", "endpointId") DO NOTHING`,
});

/**
 * Takes up to `limit` outbox rows and makes their deliveries (`toDeliveries` builds them), in one
 * transaction: BEGIN, the take, the insert (none when there is nothing to make), COMMIT. A failure
 * rolls back, leaving the rows in the outbox. Returns how many deliveries were made.
 */
export async function dispatchWebhookOutbox(
  pool: PgPool,
  limit: number,
  toDeliveries: (events: WebhookOutboxEvent[]) => NewWebhookDelivery[],
): Promise<number> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    const taken = rowsOf(TAKE_SQL, await client.query(TAKE_SQL.bind({ limit })));
    const deliveries = toDeliveries(taken).map((d) => ({
      id: d.id,
      teamId: d.teamId,
      endpointId: d.endpointId,
      outboxId: d.outboxId,
      eventType: d.eventType,
      body: d.body,
    }));
    if (deliveries.length > 0) await client.query(INSERT_SQL.bind({ deliveries: JSON.stringify(deliveries) }));
    await client.query('COMMIT');
    return deliveries.length;
  });
}
