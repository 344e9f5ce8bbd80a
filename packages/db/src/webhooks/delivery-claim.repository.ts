import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { UTC_NOW, isoUtc } from './utc-time';

/** A webhook delivery claimed for one attempt. */
export interface ClaimedWebhookDelivery {
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

export type WebhookClaim =
  | { kind: 'claimed'; delivery: ClaimedWebhookDelivery }
  /** Pending, but not due yet (or another attempt holds it): look again in `waitMs`. */
  | { kind: 'later'; waitMs: number }
  /** Delivered, failed, skipped or gone: nothing to do. */
  | { kind: 'done' };

// The row is locked first (cur), so the lease it had is known when the claim replaces it.
const CLAIM_SQL = namedQuery({
  name: 'looplane_webhook_claim_v2',
  params: { id: param.text, lease_ms: param.int },
  text: `
WITH cur AS (
  SELECT id, "leaseUntil", ${isoUtc('"lastAttemptAt"')} AS "lastAttemptAt" FROM "WebhookDelivery" WHERE id = :id FOR UPDATE
), claimed AS (
  UPDATE "WebhookDelivery" d SET "leaseUntil" = ${UTC_NOW} + :lease_ms * interval '1 millisecond', "lastAttemptAt" = ${UTC_NOW}, "updatedAt" = ${UTC_NOW}
  FROM cur WHERE d.id = cur.id AND d.status = 'pending' AND d."nextAttemptAt" <= ${UTC_NOW} AND (d."leaseUntil" IS NULL OR d."leaseUntil" < ${UTC_NOW})
  RETURNING d.id, d."teamId", d."endpointId", d."eventType", d.body, d.attempts, d."scheduleStep", cur."leaseUntil" IS NOT NULL AS interrupted, cur."lastAttemptAt"
)
SELECT c.*, e.url, e."secretCiphertext", e."disabledAt" IS NOT NULL AS disabled FROM claimed c JOIN "WebhookEndpoint" e ON e.id = c."endpointId"`,
}).returns<Omit<ClaimedWebhookDelivery, 'interrupted'> & { interrupted: boolean; lastAttemptAt: string | null }>();

const WAIT_SQL = namedQuery({
  name: 'looplane_webhook_wait_v2',
  params: { id: param.text },
  text: `
SELECT status, GREATEST(0, EXTRACT(EPOCH FROM (GREATEST("nextAttemptAt", COALESCE("leaseUntil", "nextAttemptAt")) - ${UTC_NOW})) * 1000)::int AS "waitMs"
FROM "WebhookDelivery" WHERE id = :id`,
}).returns<{ status: string; waitMs: number | null }>();

/**
 * Claims a due, pending delivery for one attempt of at most `leaseMs`; another worker leaves it
 * alone until then. When it cannot be claimed, a second statement says whether to look again.
 */
export async function claimWebhookDelivery(db: Queryable, id: string, leaseMs: number): Promise<WebhookClaim> {
  const row = rowsOf(CLAIM_SQL, await db.query(CLAIM_SQL.bind({ id, lease_ms: leaseMs })))[0];
  if (row) {
    const { interrupted, lastAttemptAt, ...delivery } = row;
    return { kind: 'claimed', delivery: { ...delivery, interrupted: interrupted ? { at: lastAttemptAt } : null } };
  }
  const state = rowsOf(WAIT_SQL, await db.query(WAIT_SQL.bind({ id })))[0];
  if (state?.status === 'pending') return { kind: 'later', waitMs: Math.max(50, state.waitMs ?? 0) };
  return { kind: 'done' };
}
