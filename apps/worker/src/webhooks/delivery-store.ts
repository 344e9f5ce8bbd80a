import { appendAudit, type Db, type Queryable } from '@looplane/db';

/**
 * The delivery rows' SQL for the dispatcher, the processor and the sweep. Timestamps are UTC
 * `timestamp(3)` columns (as Prisma writes them), so every "now" here is `timezone('UTC', now())`.
 */
const NOW = `timezone('UTC', now())`;

/** A delivery claimed for one attempt. */
export interface ClaimedDelivery {
  id: string;
  teamId: string;
  endpointId: string;
  eventType: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** Failed attempts in a row so far: the retry schedule's position. */
  scheduleStep: number;
  /** A previous attempt's lease expired without an outcome: its worker stopped mid-attempt. */
  interrupted: { at: string | null } | null;
  url: string;
  secretCiphertext: string;
  disabled: boolean;
}

export type ClaimResult =
  | { kind: 'claimed'; delivery: ClaimedDelivery }
  /** Pending, but not due yet (or another attempt holds it): look again in `waitMs`. */
  | { kind: 'later'; waitMs: number }
  /** Delivered, failed, skipped or gone: nothing to do. */
  | { kind: 'done' };

// The row is locked first (cur), so the lease it had is known when the claim replaces it.
const CLAIM_SQL = `
WITH cur AS (
  SELECT id, "leaseUntil", to_char("lastAttemptAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastAttemptAt" FROM "WebhookDelivery" WHERE id = $1 FOR UPDATE
), claimed AS (
  UPDATE "WebhookDelivery" d SET "leaseUntil" = ${NOW} + $2::int * interval '1 millisecond', "lastAttemptAt" = ${NOW}, "updatedAt" = ${NOW}
  FROM cur WHERE d.id = cur.id AND d.status = 'pending' AND d."nextAttemptAt" <= ${NOW} AND (d."leaseUntil" IS NULL OR d."leaseUntil" < ${NOW})
  RETURNING d.id, d."teamId", d."endpointId", d."eventType", d.body, d.attempts, d."scheduleStep", cur."leaseUntil" IS NOT NULL AS interrupted, cur."lastAttemptAt"
)
SELECT c.*, e.url, e."secretCiphertext", e."disabledAt" IS NOT NULL AS disabled FROM claimed c JOIN "WebhookEndpoint" e ON e.id = c."endpointId"`;

const WAIT_SQL = `
SELECT status, GREATEST(0, EXTRACT(EPOCH FROM (GREATEST("nextAttemptAt", COALESCE("leaseUntil", "nextAttemptAt")) - ${NOW})) * 1000)::int AS "waitMs"
FROM "WebhookDelivery" WHERE id = $1`;

/** Claims a due, pending delivery for one attempt of at most `leaseMs`; another worker leaves it alone until then. */
export async function claimDelivery(db: Queryable, id: string, leaseMs: number): Promise<ClaimResult> {
  const row = (await db.query({ name: 'looplane_webhook_claim_v1', text: CLAIM_SQL, values: [id, leaseMs] })).rows[0] as
    | (Omit<ClaimedDelivery, 'interrupted'> & { interrupted: boolean; lastAttemptAt: string | null })
    | undefined;
  if (row) {
    const { interrupted, lastAttemptAt, ...delivery } = row;
    return { kind: 'claimed', delivery: { ...delivery, interrupted: interrupted ? { at: lastAttemptAt } : null } };
  }
  const state = (await db.query({ name: 'looplane_webhook_wait_v1', text: WAIT_SQL, values: [id] })).rows[0] as
    | { status: string; waitMs: number | null }
    | undefined;
  if (state?.status === 'pending') return { kind: 'later', waitMs: Math.max(50, state.waitMs ?? 0) };
  return { kind: 'done' };
}

/** Records an attempt that left no outcome (its worker stopped); the delivery's schedule does not move. */
export async function recordInterrupted(db: Queryable, id: string, at: string | null): Promise<number> {
  const result = await db.query({
    name: 'looplane_webhook_interrupted_v1',
    text: `WITH d AS (UPDATE "WebhookDelivery" SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts)
      INSERT INTO "WebhookAttempt" ("deliveryId", number, error, at)
      SELECT $1, d.attempts, 'no outcome: the worker stopped during the attempt', COALESCE($2::timestamptz AT TIME ZONE 'UTC', ${NOW}) FROM d
      RETURNING number`,
    values: [id, at],
  });
  return (result.rows[0] as { number: number } | undefined)?.number ?? 0;
}

/** A delivery of a disabled endpoint gets nothing. */
export async function skipDelivery(db: Queryable, id: string): Promise<void> {
  await db.query({
    name: 'looplane_webhook_skip_v1',
    text: `UPDATE "WebhookDelivery" SET status = 'skipped', "nextAttemptAt" = NULL, "leaseUntil" = NULL, "updatedAt" = ${NOW} WHERE id = $1 AND status = 'pending'`,
    values: [id],
  });
}

/** What one attempt came to, as the processor decided it. */
export interface AttemptRecord {
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
const OUTCOME_SQL = `
WITH d AS (
  UPDATE "WebhookDelivery" SET
    attempts = attempts + 1, "leaseUntil" = NULL, "lastStatusCode" = $3::int, "lastError" = $6::text, "updatedAt" = ${NOW},
    status = CASE WHEN status = 'pending' THEN $7::text::"WebhookDeliveryStatus" ELSE status END,
    "scheduleStep" = CASE WHEN status = 'pending' THEN COALESCE($8::int, "scheduleStep") ELSE "scheduleStep" END,
    "nextAttemptAt" = CASE WHEN status = 'pending' AND $7::text = 'pending' THEN ${NOW} + $9::int * interval '1 millisecond' WHEN status = 'pending' THEN NULL ELSE "nextAttemptAt" END,
    "deliveredAt" = CASE WHEN status = 'pending' AND $7::text = 'delivered' THEN ${NOW} ELSE "deliveredAt" END,
    "enqueuedAt" = CASE WHEN $10::boolean THEN NULL ELSE "enqueuedAt" END
  WHERE id = $1
  RETURNING id, "endpointId", attempts, status
), a AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", number, "statusCode", "latencyMs", "responseExcerpt", error, at)
  SELECT d.id, d.attempts, $3::int, $4::int, $5::text, $6::text, $2::timestamptz AT TIME ZONE 'UTC' FROM d
), e AS (
  UPDATE "WebhookEndpoint" e SET "failingSince" = CASE WHEN $7::text = 'delivered' THEN NULL ELSE COALESCE(e."failingSince", $2::timestamptz AT TIME ZONE 'UTC') END
  FROM d WHERE e.id = d."endpointId" AND $11::boolean
  RETURNING e."failingSince"
)
SELECT d.status, d.attempts, (SELECT to_char("failingSince", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM e) AS "failingSince",
  (SELECT (EXTRACT(EPOCH FROM (${NOW} - "failingSince")) * 1000)::bigint FROM e) AS "failingForMs"
FROM d`;

/** Records an attempt's outcome; says how long the endpoint has been failing (null: it is not, or was not judged). */
export async function recordOutcome(
  db: Queryable,
  record: AttemptRecord,
): Promise<{ status: string; failingSince: string | null; failingForMs: number | null } | null> {
  const { next } = record;
  const status = next.kind === 'delivered' ? 'delivered' : next.kind === 'failed' ? 'failed' : 'pending';
  const result = await db.query({
    name: 'looplane_webhook_outcome_v1',
    text: OUTCOME_SQL,
    values: [
      record.id,
      record.startedAt.toISOString(),
      record.statusCode,
      record.latencyMs,
      record.responseExcerpt,
      record.error,
      status,
      next.kind === 'retry' || next.kind === 'failed' ? next.step : null,
      next.kind === 'retry' ? next.retryInMs : 0,
      next.kind === 'interrupted',
      record.judgesEndpoint,
    ],
  });
  const row = result.rows[0] as { status: string; failingSince: string | null; failingForMs: string | null } | undefined;
  return row ? { status: row.status, failingSince: row.failingSince, failingForMs: row.failingForMs === null ? null : Number(row.failingForMs) } : null;
}

/**
 * Disables an endpoint (once: an endpoint already disabled is left as it is), skips its pending
 * deliveries, and writes the audit row saying why, in one transaction.
 */
export async function disableEndpoint(db: Db, endpoint: { id: string; teamId: string }, reason: string, data: Record<string, unknown>): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const changed = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, disabledAt: null }, data: { disabledAt: now, disabledReason: reason } });
    if (changed.count === 0) return false;
    const skipped = await tx.webhookDelivery.updateMany({
      where: { endpointId: endpoint.id, status: 'pending' },
      data: { status: 'skipped', nextAttemptAt: null, updatedAt: now },
    });
    const { url } = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id }, select: { url: true } });
    await appendAudit(tx, {
      teamId: endpoint.teamId,
      actor: { type: 'system', name: 'webhooks' },
      action: 'webhook.disabled',
      targetType: 'webhook',
      targetId: endpoint.id,
      data: { url, reason, skippedDeliveries: skipped.count, ...data },
    });
    return true;
  });
}
