import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgPool, withClient, type PgPool } from '../runs/pg-pool';
import { createTestTeam } from '../runs/testing/run-fixtures';
import { newId } from '../vocabulary/ids';
import { markWebhookDeliveriesEnqueued } from './delivery-queue.repository';
import { deleteWebhookEndpoint } from './endpoint-delete.repository';
import { disableWebhookEndpoint } from './endpoint-disable.repository';
import { raceJitter as jitter } from './testing/race-fixtures';

/**
 * Two writers of many `WebhookDelivery` rows at once: the dispatcher marking deliveries enqueued
 * (any endpoints' rows, in the order it found them) and an endpoint's disable skipping its pending
 * ones. When each locked its rows in the order its plan happened to visit them (a heap scan, the
 * endpoint index newest first), the two deadlocked; every multi-row writer now locks them in
 * ascending id order.
 */
const ITERATIONS = 200;
const DELIVERIES_PER_ENDPOINT = 10;
const FILLER_DELIVERIES = 5000;

let t: TestDatabase;
let pool: PgPool;
let teamId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  teamId = await createTestTeam(t.db);
  await fillerDeliveries();
});
afterAll(async () => {
  await pool?.end();
  await t?.drop();
});

const shuffled = <T>(items: readonly T[]): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/**
 * Delivered rows of another endpoint, analysed, so the planner picks the plans a real table gets:
 * the primary key for a list of ids (ascending id order), a bitmap scan for an endpoint's pending
 * rows (heap order). On a table of a few rows both are heap scans, in the same order.
 */
async function fillerDeliveries(): Promise<void> {
  const endpoint = await t.db.webhookEndpoint.create({
    data: { teamId, url: 'https://hooks.example.test/filler', events: ['run.finished'], secretCiphertext: 'v1.sealed-elsewhere' },
  });
  const data = Array.from({ length: FILLER_DELIVERIES }, () => ({
    id: newId(),
    teamId,
    endpointId: endpoint.id,
    eventType: 'run.finished',
    body: '{}',
    status: 'delivered' as const,
  }));
  await t.db.webhookDelivery.createMany({ data });
  await pool.query('ANALYZE "WebhookDelivery"');
}

/**
 * Two endpoints whose pending, never-enqueued deliveries alternate by id, so no scan of one
 * endpoint's rows visits them in the order of a scan of both. `createdAt` rises with the id (the
 * endpoint index then visits them in descending id order) and the rows are inserted shuffled (a
 * heap scan visits them in neither order).
 */
async function interleavedEndpoints(): Promise<{ disabled: { id: string; deliveryIds: string[] }; kept: { id: string; deliveryIds: string[] } }> {
  const endpoint = () =>
    t.db.webhookEndpoint.create({
      data: { teamId, url: 'https://hooks.example.test/race', events: ['run.finished'], secretCiphertext: 'v1.sealed-elsewhere' },
    });
  const [a, b] = [await endpoint(), await endpoint()];
  const ids = Array.from({ length: 2 * DELIVERIES_PER_ENDPOINT }, () => newId()).sort();
  const start = Date.now();
  const rows = ids.map((id, i) => ({
    id,
    teamId,
    endpointId: i % 2 === 0 ? a.id : b.id,
    eventType: 'run.finished',
    body: '{}',
    nextAttemptAt: new Date(start),
    createdAt: new Date(start + i),
  }));
  await t.db.webhookDelivery.createMany({ data: shuffled(rows) });
  const of = (endpointId: string) => rows.filter((row) => row.endpointId === endpointId).map((row) => row.id);
  return { disabled: { id: a.id, deliveryIds: of(a.id) }, kept: { id: b.id, deliveryIds: of(b.id) } };
}

/** Backends of this database waiting for a lock. */
async function lockWaiters(): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

/**
 * Runs `racers` while another transaction (as an attempt's claim would) holds the row `heldId`,
 * and lets it go once every racer waits for a lock: both writers are then part-way through their
 * rows at once, which two statements of a few rows each rarely are on their own.
 */
async function raceBehindHeldRow<T extends unknown[]>(heldId: string, racers: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  return withClient(pool, async (holder) => {
    await holder.query('BEGIN');
    await holder.query({ text: 'SELECT 1 FROM "WebhookDelivery" WHERE id = $1 FOR UPDATE', values: [heldId] });
    const running = Promise.all(racers.map((racer) => jitter().then(racer)));
    running.catch(() => {}); // awaited below; a racer failing early must not go unhandled meanwhile
    await vi.waitFor(async () => expect(await lockWaiters()).toBe(racers.length), { timeout: 10_000, interval: 5 });
    await holder.query('COMMIT');
    return (await running) as T;
  });
}

/** Each delivery of the endpoint as [status, nextAttemptAt is null, enqueuedAt is set]. */
async function states(endpointId: string): Promise<Array<[string, boolean, boolean]>> {
  const rows = await t.db.webhookDelivery.findMany({ where: { endpointId }, select: { status: true, nextAttemptAt: true, enqueuedAt: true } });
  return rows.map((row) => [row.status, row.nextAttemptAt === null, row.enqueuedAt !== null]);
}

const markAll =
  (...endpoints: Array<{ deliveryIds: string[] }>) =>
  () =>
    markWebhookDeliveriesEnqueued(pool, shuffled(endpoints.flatMap((endpoint) => endpoint.deliveryIds)));

describe('webhook delivery multi-row lock order', () => {
  it('marking deliveries enqueued racing their endpoint being disabled: no deadlock, every row marked, the endpoint’s skipped', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { disabled, kept } = await interleavedEndpoints();
      const heldId = disabled.deliveryIds[Math.floor(Math.random() * DELIVERIES_PER_ENDPOINT)]!;
      const [wasDisabled] = await raceBehindHeldRow<[boolean, unknown]>(heldId, [
        () => disableWebhookEndpoint(t.db, { id: disabled.id, teamId }, 'test race', {}),
        markAll(disabled, kept),
      ]);
      expect(wasDisabled).toBe(true);
      expect(await states(disabled.id)).toEqual(disabled.deliveryIds.map(() => ['skipped', true, true]));
      expect(await states(kept.id)).toEqual(kept.deliveryIds.map(() => ['pending', false, true]));
      // Skipped at the instant the endpoint was disabled, as the Prisma update wrote it.
      const { disabledAt } = await t.db.webhookEndpoint.findUniqueOrThrow({ where: { id: disabled.id }, select: { disabledAt: true } });
      const skipped = await t.db.webhookDelivery.findMany({ where: { endpointId: disabled.id }, select: { updatedAt: true } });
      expect(skipped.map((row) => row.updatedAt.getTime())).toEqual(disabled.deliveryIds.map(() => disabledAt?.getTime()));
      const audit = await t.db.auditLog.findFirstOrThrow({ where: { targetId: disabled.id, action: 'webhook.disabled' }, select: { data: true } });
      expect(audit.data).toMatchObject({ skippedDeliveries: DELIVERIES_PER_ENDPOINT });
    }
  });

  it('marking deliveries enqueued racing their endpoint being deleted: no deadlock, the endpoint’s gone, the rest marked', async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const { disabled: deleted, kept } = await interleavedEndpoints();
      const heldId = deleted.deliveryIds[Math.floor(Math.random() * DELIVERIES_PER_ENDPOINT)]!;
      const [wasDeleted] = await raceBehindHeldRow<[boolean, unknown]>(heldId, [
        () => t.db.$transaction((tx) => deleteWebhookEndpoint(tx, deleted.id)),
        markAll(deleted, kept),
      ]);
      expect(wasDeleted).toBe(true);
      expect(await t.db.webhookDelivery.count({ where: { id: { in: deleted.deliveryIds } } })).toBe(0);
      expect(await states(kept.id)).toEqual(kept.deliveryIds.map(() => ['pending', false, true]));
    }
  });

  it('deleting an endpoint that is gone deletes nothing', async () => {
    expect(await t.db.$transaction((tx) => deleteWebhookEndpoint(tx, newId()))).toBe(false);
  });
});
