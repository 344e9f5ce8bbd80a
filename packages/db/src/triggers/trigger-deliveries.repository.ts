import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';

/**
 * What happened to each delivery to a trigger (`TriggerDelivery`: accepted or refused, with the
 * status answered and why) and the accepted webhook-ids (`TriggerReceipt`). The receipt's primary
 * key (trigger, webhook-id) is what makes a repeated delivery answer the same run: of two
 * concurrent deliveries with one id, exactly one inserts the receipt and starts the run.
 */

/** One delivery as recorded when it is answered. */
export interface NewTriggerDelivery {
  id: string;
  triggerId: string;
  webhookId: string | null;
  status: number;
  accepted: boolean;
  reason: string | null;
  runId: string | null;
  bytes: number;
}

/** One delivery as the trigger's page lists it. */
export interface TriggerDeliveryRecord extends NewTriggerDelivery {
  createdAt: Date;
}

const deliverySchema = z
  .object({
    id: z.string(),
    triggerId: z.string(),
    webhookId: z.string().nullable(),
    status: z.number(),
    accepted: z.boolean(),
    reason: z.string().nullable(),
    runId: z.string().nullable(),
    bytes: z.number(),
    createdAtMs: z.number(),
  })
  .transform(({ createdAtMs, ...row }) => ({ ...row, createdAt: new Date(createdAtMs) }));

const COLUMNS = `id, "triggerId", "webhookId", status, accepted, reason, "runId", bytes, (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAtMs"`;

const INSERT_SQL = namedQuery({
  name: 'looplane_trigger_delivery_insert_v1',
  params: {
    id: param.text,
    trigger_id: param.text,
    webhook_id: param.nullableText,
    status: param.int,
    accepted: param.boolean,
    reason: param.nullableText,
    run_id: param.nullableText,
    bytes: param.int,
  },
  text: `
INSERT INTO "TriggerDelivery" (id, "triggerId", "webhookId", status, accepted, reason, "runId", bytes)
VALUES (:id, :trigger_id, :webhook_id, :status, :accepted, :reason, :run_id, :bytes)`,
});

/** Records one delivery and how it was answered. */
export async function recordTriggerDelivery(db: Queryable, d: NewTriggerDelivery): Promise<void> {
  await db.query(
    INSERT_SQL.bind({
      id: d.id,
      trigger_id: d.triggerId,
      webhook_id: d.webhookId,
      status: d.status,
      accepted: d.accepted,
      reason: d.reason,
      run_id: d.runId,
      bytes: d.bytes,
    }),
  );
}

const LIST_SQL = namedQuery({
  name: 'looplane_trigger_delivery_list_v1',
  params: { trigger_id: param.text, cursor: param.nullableText, limit: param.int },
  text: `
SELECT ${COLUMNS} FROM "TriggerDelivery" d
WHERE "triggerId" = :trigger_id
  AND (:cursor IS NULL OR ("createdAt", id) < (SELECT "createdAt", id FROM "TriggerDelivery" WHERE id = :cursor AND "triggerId" = :trigger_id))
ORDER BY "createdAt" DESC, id DESC
LIMIT :limit`,
});

/** A trigger's deliveries, newest first; `cursor` is the last delivery id of the previous page. */
export async function listTriggerDeliveries(db: Queryable, triggerId: string, cursor: string | null, limit: number): Promise<TriggerDeliveryRecord[]> {
  const result = await db.query(LIST_SQL.bind({ trigger_id: triggerId, cursor, limit }));
  return result.rows.map((row) => deliverySchema.parse(row));
}

const receiptSchema = z.object({ runId: z.string(), messageId: z.string().nullable() });
export type TriggerReceiptRecord = z.infer<typeof receiptSchema>;

const CLAIM_SQL = namedQuery({
  name: 'looplane_trigger_receipt_claim_v1',
  params: { trigger_id: param.text, webhook_id: param.text },
  text: `
INSERT INTO "TriggerReceipt" ("triggerId", "webhookId", "runId")
VALUES (:trigger_id, :webhook_id, '')
ON CONFLICT ("triggerId", "webhookId") DO NOTHING
RETURNING "runId"`,
});

/**
 * Claims a webhook-id for this delivery: true when this call inserted the receipt (it goes on to
 * start the run, then {@link completeTriggerReceipt} or {@link releaseTriggerReceipt}), false when
 * another delivery with the same id holds it. The receipt's `runId` stays empty until completed.
 */
export async function claimTriggerReceipt(db: Queryable, triggerId: string, webhookId: string): Promise<boolean> {
  const result = await db.query(CLAIM_SQL.bind({ trigger_id: triggerId, webhook_id: webhookId }));
  return result.rows.length === 1;
}

const GET_SQL = namedQuery({
  name: 'looplane_trigger_receipt_get_v1',
  params: { trigger_id: param.text, webhook_id: param.text },
  text: `SELECT "runId", "messageId" FROM "TriggerReceipt" WHERE "triggerId" = :trigger_id AND "webhookId" = :webhook_id`,
});

/** The receipt of a webhook-id: its run (empty while the claiming delivery is still starting it), or null. */
export async function triggerReceipt(db: Queryable, triggerId: string, webhookId: string): Promise<TriggerReceiptRecord | null> {
  const row = (await db.query(GET_SQL.bind({ trigger_id: triggerId, webhook_id: webhookId }))).rows[0];
  return row === undefined ? null : receiptSchema.parse(row);
}

const COMPLETE_SQL = namedQuery({
  name: 'looplane_trigger_receipt_complete_v1',
  params: { trigger_id: param.text, webhook_id: param.text, run_id: param.text, message_id: param.nullableText },
  text: `
UPDATE "TriggerReceipt" SET "runId" = :run_id, "messageId" = :message_id
WHERE "triggerId" = :trigger_id AND "webhookId" = :webhook_id
RETURNING "runId"`,
});

/** Records the run (and message) a claimed webhook-id led to: repeats of it now answer this run. */
export async function completeTriggerReceipt(db: Queryable, triggerId: string, webhookId: string, runId: string, messageId: string | null): Promise<void> {
  await db.query(COMPLETE_SQL.bind({ trigger_id: triggerId, webhook_id: webhookId, run_id: runId, message_id: messageId }));
}

const RELEASE_SQL = namedQuery({
  name: 'looplane_trigger_receipt_release_v1',
  params: { trigger_id: param.text, webhook_id: param.text },
  text: `DELETE FROM "TriggerReceipt" WHERE "triggerId" = :trigger_id AND "webhookId" = :webhook_id AND "runId" = '' RETURNING "webhookId"`,
});

/** Gives back a claim whose run could not be started, so the sender's retry may try again. */
export async function releaseTriggerReceipt(db: Queryable, triggerId: string, webhookId: string): Promise<void> {
  await db.query(RELEASE_SQL.bind({ trigger_id: triggerId, webhook_id: webhookId }));
}

const LINK_RUN_SQL = namedQuery({
  name: 'looplane_trigger_link_run_v1',
  params: { trigger_id: param.text, run_id: param.text },
  text: `UPDATE "Run" SET "triggerId" = :trigger_id WHERE id = :run_id AND "triggerId" IS NULL RETURNING id`,
});

/** Links a run started by a delivery to its trigger (a graph run, whose create path does not take the trigger). */
export async function linkRunToTrigger(db: Queryable, triggerId: string, runId: string): Promise<void> {
  await db.query(LINK_RUN_SQL.bind({ trigger_id: triggerId, run_id: runId }));
}
