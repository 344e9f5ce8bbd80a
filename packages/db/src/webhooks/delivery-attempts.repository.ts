import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { UTC_NOW, isoUtc } from './utc-time';

const INTERRUPTED_SQL = namedQuery({
  name: 'looplane_webhook_interrupted_v2',
  params: { id: param.text, at: param.nullableText },
  text: `WITH d AS (UPDATE "WebhookDelivery" SET attempts = attempts + 1 WHERE id = :id RETURNING attempts)
      INSERT INTO "WebhookAttempt" ("deliveryId", number, error, at)
      SELECT :id, d.attempts, 'no outcome: the worker stopped during the attempt', COALESCE(:at::timestamptz AT TIME ZONE 'UTC', ${UTC_NOW}) FROM d
      RETURNING number`,
}).returns<{ number: number }>();

/**
 * Records an attempt that left no outcome (its worker stopped); the delivery's schedule does not
 * move. `at` is when it started (ISO text, as the claim read it; null: now). Returns its number.
 */
export async function recordInterruptedWebhookAttempt(db: Queryable, id: string, at: string | null): Promise<number> {
  return rowsOf(INTERRUPTED_SQL, await db.query(INTERRUPTED_SQL.bind({ id, at })))[0]?.number ?? 0;
}

const SKIP_SQL = namedQuery({
  name: 'looplane_webhook_skip_v2',
  params: { id: param.text },
  text: `UPDATE "WebhookDelivery" SET status = 'skipped', "nextAttemptAt" = NULL, "leaseUntil" = NULL, "updatedAt" = ${UTC_NOW} WHERE id = :id AND status = 'pending'`,
});

/** A delivery of a disabled endpoint gets nothing. */
export async function skipWebhookDelivery(db: Queryable, id: string): Promise<void> {
  await db.query(SKIP_SQL.bind({ id }));
}

/** What one attempt came to, as the processor decided it. */
export interface WebhookAttemptRecord {
  id: string;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
  /** delivered; retry in `retryInMs`; failed for good; or interrupted (stopped worker: due again now, job re-added by a dispatcher). */
  next: { kind: 'delivered' } | { kind: 'retry'; retryInMs: number; step: number } | { kind: 'failed'; step: number } | { kind: 'interrupted' };
  /** Whether the attempt says anything about the endpoint (not when our side failed: no key, a stopped worker). */
  judgesEndpoint: boolean;
}

// One statement: the delivery (only while still pending: an admin may have disabled it meanwhile),
// its attempt row, and the endpoint's failing-since (cleared by a delivery, set by a first failure).
//
// Lock order: the WebhookEndpoint row first, then the WebhookDelivery row, as every writer of both
// takes them (disabling an endpoint skips its deliveries after updating it; deleting it cascades to
// them). `ep` locks the endpoint (only when the attempt judges it: otherwise the endpoint is not
// touched), and `d`'s WHERE reads `ep` (a count, always true), so the endpoint is locked before `d`
// locks the delivery. With the delivery locked first, an outcome and a disable deadlocked, and an
// outcome chosen as the victim went unrecorded until its lease expired. A delivery's endpoint never
// changes, so it is read unlocked.
const OUTCOME_SQL = namedQuery({
  name: 'looplane_webhook_outcome_v3',
  params: {
    id: param.text,
    started_at: param.timestamptz,
    status_code: param.nullableInt,
    latency_ms: param.int,
    response_excerpt: param.nullableText,
    error: param.nullableText,
    status: param.text,
    step: param.nullableInt,
    retry_in_ms: param.int,
    interrupted: param.boolean,
    judges_endpoint: param.boolean,
  },
  text: `
WITH ep AS MATERIALIZED (
  SELECT id FROM "WebhookEndpoint"
  WHERE :judges_endpoint AND id = (SELECT "endpointId" FROM "WebhookDelivery" WHERE id = :id)
  FOR NO KEY UPDATE
), d AS (
  UPDATE "WebhookDelivery" SET
    attempts = attempts + 1, "leaseUntil" = NULL, "lastStatusCode" = :status_code, "lastError" = :error, "updatedAt" = ${UTC_NOW},
    status = CASE WHEN status = 'pending' THEN :status::"WebhookDeliveryStatus" ELSE status END,
    "scheduleStep" = CASE WHEN status = 'pending' THEN COALESCE(:step, "scheduleStep") ELSE "scheduleStep" END,
    "nextAttemptAt" = CASE WHEN status = 'pending' AND :status = 'pending' THEN ${UTC_NOW} + :retry_in_ms * interval '1 millisecond' WHEN status = 'pending' THEN NULL ELSE "nextAttemptAt" END,
    "deliveredAt" = CASE WHEN status = 'pending' AND :status = 'delivered' THEN ${UTC_NOW} ELSE "deliveredAt" END,
    "enqueuedAt" = CASE WHEN :interrupted THEN NULL ELSE "enqueuedAt" END
  WHERE id = :id AND (SELECT count(*) FROM ep) >= 0
  RETURNING id, "endpointId", attempts, status
), a AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", number, "statusCode", "latencyMs", "responseExcerpt", error, at)
  SELECT d.id, d.attempts, :status_code, :latency_ms, :response_excerpt, :error, :started_at AT TIME ZONE 'UTC' FROM d
), e AS (
  UPDATE "WebhookEndpoint" e SET "failingSince" = CASE WHEN :status = 'delivered' THEN NULL ELSE COALESCE(e."failingSince", :started_at AT TIME ZONE 'UTC') END
  FROM d WHERE e.id = d."endpointId" AND :judges_endpoint
  RETURNING e."failingSince"
)
SELECT d.status, d.attempts, (SELECT ${isoUtc('"failingSince"')} FROM e) AS "failingSince",
  (SELECT (EXTRACT(EPOCH FROM (${UTC_NOW} - "failingSince")) * 1000)::bigint FROM e) AS "failingForMs"
FROM d`,
}).returns<{ status: string; failingSince: string | null; failingForMs: string | null }>();

/** What recording an attempt left: the delivery's status, and how long its endpoint has been failing. */
export interface RecordedWebhookAttempt {
  status: string;
  /** null: the endpoint is not failing, or the attempt did not judge it. */
  failingSince: string | null;
  failingForMs: number | null;
}

/** Records an attempt's outcome (null: the delivery is gone). */
export async function recordWebhookAttemptOutcome(db: Queryable, record: WebhookAttemptRecord): Promise<RecordedWebhookAttempt | null> {
  const { next } = record;
  const status = next.kind === 'delivered' ? 'delivered' : next.kind === 'failed' ? 'failed' : 'pending';
  const result = await db.query(
    OUTCOME_SQL.bind({
      id: record.id,
      started_at: record.startedAt,
      status_code: record.statusCode,
      latency_ms: record.latencyMs,
      response_excerpt: record.responseExcerpt,
      error: record.error,
      status,
      step: next.kind === 'retry' || next.kind === 'failed' ? next.step : null,
      retry_in_ms: next.kind === 'retry' ? next.retryInMs : 0,
      interrupted: next.kind === 'interrupted',
      judges_endpoint: record.judgesEndpoint,
    }),
  );
  const row = rowsOf(OUTCOME_SQL, result)[0];
  return row ? { status: row.status, failingSince: row.failingSince, failingForMs: row.failingForMs === null ? null : Number(row.failingForMs) } : null;
}
