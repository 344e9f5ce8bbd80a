import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgPool, withClient, type PgPool } from '../runs/pg-pool';
import { createTestTeam } from '../runs/testing/run-fixtures';
import { recordWebhookAttemptOutcome } from './delivery-attempts.repository';
import { disableWebhookEndpoint } from './endpoint-disable.repository';
import { failedWebhookAttempt as failedAttempt, raceJitter as jitter, webhookEndpointWithClaimedDeliveries } from './testing/race-fixtures';

/**
 * Attempt outcomes racing the disabling and deleting of their endpoint. Every writer of both
 * tables takes the endpoint row before its deliveries; an outcome that took its delivery first
 * (as it once did) deadlocked with a disable, and when Postgres chose it as the victim the attempt
 * went unrecorded until its lease expired.
 */
const ITERATIONS = 200;
const DELIVERIES_PER_ENDPOINT = 3;

let t: TestDatabase;
let pool: PgPool;
let teamId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: DELIVERIES_PER_ENDPOINT + 4 });
  teamId = await createTestTeam(t.db);
});
afterAll(async () => {
  await pool?.end();
  await t?.drop();
});

/** Backends of this database waiting for a lock. */
async function lockWaiters(): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

describe('webhook endpoint and delivery lock order', () => {
  it('an attempt outcome waiting for its endpoint holds no lock on its delivery yet', async () => {
    const { endpointId, deliveryIds } = await webhookEndpointWithClaimedDeliveries(t.db, teamId, DELIVERIES_PER_ENDPOINT);
    const deliveryId = deliveryIds[0]!;
    await withClient(pool, async (holder) => {
      await holder.query('BEGIN');
      await holder.query({ text: 'SELECT 1 FROM "WebhookEndpoint" WHERE id = $1 FOR NO KEY UPDATE', values: [endpointId] });
      const outcome = recordWebhookAttemptOutcome(pool, failedAttempt(deliveryId));
      await vi.waitFor(async () => expect(await lockWaiters()).toBe(1), { timeout: 10_000, interval: 20 });
      // The delivery is free while the outcome waits: a disable holding the endpoint could take it.
      await withClient(pool, async (other) => {
        await other.query('BEGIN');
        await other.query({ text: 'SELECT 1 FROM "WebhookDelivery" WHERE id = $1 FOR UPDATE NOWAIT', values: [deliveryId] });
        await other.query('COMMIT');
      });
      await holder.query('COMMIT');
      expect(await outcome).toMatchObject({ status: 'pending', failingSince: expect.any(String) });
    });
  });

  it('attempt outcomes racing the endpoint being disabled: no deadlock, every attempt recorded', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { endpointId, deliveryIds } = await webhookEndpointWithClaimedDeliveries(t.db, teamId, DELIVERIES_PER_ENDPOINT);
      const [disabled, ...recorded] = await Promise.all([
        jitter().then(() => disableWebhookEndpoint(t.db, { id: endpointId, teamId }, 'test race', {})),
        ...deliveryIds.map((id) => jitter().then(() => recordWebhookAttemptOutcome(pool, failedAttempt(id)))),
      ]);
      expect(disabled).toBe(true);
      expect(recorded.every((row) => row !== null)).toBe(true);
      const rows = await t.db.webhookDelivery.findMany({
        where: { endpointId },
        select: { attempts: true, leaseUntil: true, _count: { select: { attemptsLog: true } } },
      });
      expect(rows.map((row) => [row.attempts, row._count.attemptsLog, row.leaseUntil])).toEqual(deliveryIds.map(() => [1, 1, null]));
    }
  });

  it('attempt outcomes racing the endpoint being deleted: no deadlock; an outcome finds its delivery or nothing', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { endpointId, deliveryIds } = await webhookEndpointWithClaimedDeliveries(t.db, teamId, DELIVERIES_PER_ENDPOINT);
      const [, ...recorded] = await Promise.all([
        jitter().then(() => t.db.webhookEndpoint.delete({ where: { id: endpointId } })),
        ...deliveryIds.map((id) => jitter().then(() => recordWebhookAttemptOutcome(pool, failedAttempt(id)))),
      ]);
      expect(recorded.every((row) => row === null || row.status === 'pending')).toBe(true);
      expect(await t.db.webhookDelivery.count({ where: { endpointId } })).toBe(0);
    }
  });
});
