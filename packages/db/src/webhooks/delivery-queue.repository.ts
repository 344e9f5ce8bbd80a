import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { UTC_NOW } from './utc-time';

/**
 * Postgres owns the truth, the queue only delivers: these find the pending deliveries that need a
 * queue job (never added, or lost) and mark the ones a job was added for.
 */

// Pending deliveries no job was added for yet: new ones, redeliveries, tests, attempts a stopping worker gave back.
const UNQUEUED_SQL = namedQuery({
  name: 'looplane_webhook_unqueued_v2',
  params: { limit: param.int },
  text: `
SELECT id, GREATEST(0, EXTRACT(EPOCH FROM ("nextAttemptAt" - ${UTC_NOW})) * 1000)::int AS "dueInMs"
FROM "WebhookDelivery" WHERE status = 'pending' AND "enqueuedAt" IS NULL ORDER BY "createdAt" LIMIT :limit`,
}).returns<{ id: string; dueInMs: number }>();

/** Up to `limit` pending deliveries without a queue job (oldest first), and how soon each is due. */
export async function unqueuedWebhookDeliveries(db: Queryable, limit: number): Promise<{ id: string; dueInMs: number }[]> {
  return rowsOf(UNQUEUED_SQL, await db.query(UNQUEUED_SQL.bind({ limit })));
}

// Lock order: the rows are locked in ascending id order (`locked`) before any is updated, as every
// writer of many deliveries takes them (an endpoint's skip and delete: pending-skip and
// endpoint-delete.repository.ts). Updated in the order a plan visited them (the primary key for the list, a heap scan for an
// endpoint's rows), a mark and a disable sharing rows deadlocked. NO KEY UPDATE: the strength
// the UPDATE takes anyway.
const MARK_SQL = namedQuery({
  name: 'looplane_webhook_mark_v2',
  params: { ids: param.textArray },
  text: `
WITH locked AS MATERIALIZED (
  SELECT id FROM "WebhookDelivery" WHERE id = ANY(:ids) AND "enqueuedAt" IS NULL ORDER BY id FOR NO KEY UPDATE
)
UPDATE "WebhookDelivery" d SET "enqueuedAt" = ${UTC_NOW} FROM locked WHERE d.id = locked.id AND d."enqueuedAt" IS NULL`,
});

/** Marks deliveries whose queue job was added (after it was: a crash in between only adds it twice, harmlessly). */
export async function markWebhookDeliveriesEnqueued(db: Queryable, ids: readonly string[]): Promise<void> {
  await db.query(MARK_SQL.bind({ ids }));
}

// Pending deliveries that had a job, are overdue by more than the grace, and are not being
// attempted: their job may be gone (Redis lost it, a processor failed it for good).
const OVERDUE_SQL = namedQuery({
  name: 'looplane_webhook_overdue_v2',
  params: { grace_ms: param.int, limit: param.int },
  text: `
SELECT id FROM "WebhookDelivery"
WHERE status = 'pending' AND "enqueuedAt" IS NOT NULL
  AND "nextAttemptAt" < ${UTC_NOW} - :grace_ms * interval '1 millisecond'
  AND ("leaseUntil" IS NULL OR "leaseUntil" < ${UTC_NOW})
ORDER BY "nextAttemptAt" LIMIT :limit`,
}).returns<{ id: string }>();

/** Up to `limit` deliveries overdue by more than `graceMs` whose queue job may be gone (most overdue first). */
export async function overdueWebhookDeliveries(db: Queryable, graceMs: number, limit: number): Promise<string[]> {
  return rowsOf(OVERDUE_SQL, await db.query(OVERDUE_SQL.bind({ grace_ms: graceMs, limit }))).map((row) => row.id);
}
