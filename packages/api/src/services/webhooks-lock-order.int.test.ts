import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createDb, createPgPool, recordWebhookAttemptOutcome, SecretBox, type Db, type PgPool } from '@looplane/db';
import { failedWebhookAttempt, raceJitter as jitter, webhookEndpointWithClaimedDeliveries } from '@looplane/db/testing';
import { createTeamFixture, type TeamFixture } from '../testing/fixtures';
import { deleteWebhook, rotateWebhookSecret, updateWebhook } from './webhooks.service';

/**
 * The worker's attempt outcomes racing an admin disabling, editing, rotating and deleting their
 * endpoint. Both sides take the endpoint row before its deliveries; when the outcome took its
 * delivery first, the two deadlocked and an outcome chosen as the victim went unrecorded.
 */
const ITERATIONS = 200;
const DELIVERIES_PER_ENDPOINT = 3;

let testDb: TestDatabase;
let db: Db;
let pool: PgPool;
let fx: TeamFixture;
const settings = { allowPrivate: true };
const box = new SecretBox(randomBytes(32).toString('base64'));
const actor = () => ({ type: 'user' as const, userId: fx.members.admin.id });

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDb(testDb.url, { poolSize: 4 });
  pool = createPgPool(testDb.url, { max: DELIVERIES_PER_ENDPOINT + 2 });
  fx = await createTeamFixture(db);
});
afterAll(async () => {
  await pool?.end();
  await db?.$disconnect();
  await testDb?.drop();
});

const outcomes = (deliveryIds: string[]) => deliveryIds.map((id) => jitter().then(() => recordWebhookAttemptOutcome(pool, failedWebhookAttempt(id))));

describe('webhook endpoint writes racing attempt outcomes', () => {
  it('disabling (with an edit) and rotating: no deadlock, every attempt recorded, every pending delivery skipped', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { endpointId: webhookId, deliveryIds } = await webhookEndpointWithClaimedDeliveries(
        db,
        fx.teamId,
        DELIVERIES_PER_ENDPOINT,
        'http://127.0.0.1:9/race',
      );
      const [updated, , ...recorded] = await Promise.all([
        jitter().then(() => updateWebhook(db, settings, actor(), fx.teamId, { webhookId, enabled: false, description: `race ${i}` }, null)),
        jitter().then(() => rotateWebhookSecret(db, box, actor(), fx.teamId, webhookId, null)),
        ...outcomes(deliveryIds),
      ]);
      expect(updated).toMatchObject({ enabled: false });
      expect(recorded.every((row) => row !== null)).toBe(true);
      const rows = await db.webhookDelivery.findMany({
        where: { endpointId: webhookId },
        select: { status: true, attempts: true, leaseUntil: true, _count: { select: { attemptsLog: true } } },
      });
      expect(rows.map((row) => [row.status, row.attempts, row._count.attemptsLog, row.leaseUntil])).toEqual(deliveryIds.map(() => ['skipped', 1, 1, null]));
    }
  });

  it('deleting: no deadlock; an outcome records its attempt or finds the delivery gone', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { endpointId: webhookId, deliveryIds } = await webhookEndpointWithClaimedDeliveries(
        db,
        fx.teamId,
        DELIVERIES_PER_ENDPOINT,
        'http://127.0.0.1:9/race',
      );
      const [deleted, ...recorded] = await Promise.all([jitter().then(() => deleteWebhook(db, actor(), fx.teamId, webhookId, null)), ...outcomes(deliveryIds)]);
      expect(deleted).toEqual({ id: webhookId, deleted: true });
      expect(recorded.every((row) => row === null || row.status === 'pending')).toBe(true);
      expect(await db.webhookDelivery.count({ where: { endpointId: webhookId } })).toBe(0);
    }
  });
});
