import { createTestLive, type TestLive } from '@looplane/api/testing';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { startReceiver, verifyReceived, type TestReceiver } from '@looplane/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePrefix, waitFor } from '../testing/test-runtime';
import { spawnWebhooksProcess, startTestWebhooks, webhookAdmin, type TestWebhooks } from '../testing/webhook-stack';

/**
 * Delivery end to end: real Postgres, Redis and BullMQ, the worker's dispatcher and processor,
 * and a real HTTP receiver on 127.0.0.1, every request checked with the `standardwebhooks`
 * package. The retry schedule runs in milliseconds (scale 0.001); the disable window is 1.5 s.
 */
const DISABLE_AFTER_MS = 1500;
let t: TestDatabase;
let live: TestLive;
let prefix: string;
let stack: TestWebhooks | null = null;
let receiver: TestReceiver;
let teamId: string;
let admin: Awaited<ReturnType<typeof webhookAdmin>>;

beforeAll(async () => {
  t = await createTestDatabase();
  live = await createTestLive();
  prefix = uniquePrefix('webhooks');
  stack = await startTestWebhooks(t.url, prefix, { disableAfterMs: DISABLE_AFTER_MS });
  teamId = await createTestTeam(t.db);
  admin = await webhookAdmin(t.db, live.dispatch, teamId);
});
afterAll(async () => {
  await stack?.close();
  await live?.close();
  await t?.drop();
});

/** A fresh receiver and an endpoint for it (subscribed to `events`). */
async function endpoint(events: string[] = ['run.finished']) {
  receiver = await startReceiver();
  const created = await admin.api.webhooks.create({ teamId, url: receiver.url, events: events as never });
  return { id: created.webhook.id, secret: created.secret, receiver };
}

const delivery = (id: string) => t.db.webhookDelivery.findUniqueOrThrow({ where: { id }, include: { attemptsLog: { orderBy: { number: 'asc' } } } });
const deliveredOrFailed = (id: string, timeoutMs = 20_000) =>
  waitFor(
    async () => {
      const row = await delivery(id);
      return row.status !== 'pending' ? row : undefined;
    },
    timeoutMs,
    `delivery ${id} to end`,
  );

describe('delivery', () => {
  it('500 three times, then 200: one accepted delivery, the same webhook-id on every attempt, four attempts recorded', async () => {
    const hook = await endpoint();
    hook.receiver.reply = (_request, index) => (index < 3 ? { status: 500, body: `not yet ${index}` } : { status: 200, body: 'ok' });
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    const done = await deliveredOrFailed(deliveryId);
    expect(done).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200, nextAttemptAt: null });
    expect(hook.receiver.requests).toHaveLength(4);
    expect(new Set(hook.receiver.requests.map((r) => r.id))).toEqual(new Set([deliveryId]));
    for (const request of hook.receiver.requests)
      expect(verifyReceived(request, hook.secret)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
    expect(done.attemptsLog.map((a) => [a.number, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 500, 'not yet 0'],
      [2, 500, 'not yet 1'],
      [3, 500, 'not yet 2'],
      [4, 200, 'ok'],
    ]);
    expect(done.attemptsLog.every((a) => a.latencyMs !== null && a.latencyMs >= 0)).toBe(true);
    expect((await t.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).failingSince).toBeNull();
    const log = await admin.api.webhooks.deliveries({ teamId, webhookId: hook.id });
    expect(log.items[0]).toMatchObject({
      id: deliveryId,
      status: 'delivered',
      attempts: 4,
      attemptLog: expect.arrayContaining([expect.objectContaining({ number: 4, statusCode: 200 })]),
    });
    await hook.receiver.close();
  });

  it('a state change makes exactly one delivery per subscribed endpoint; an endpoint not subscribed gets none', async () => {
    const first = await endpoint(['run.finished']);
    const second = await endpoint(['run.finished', 'run.waiting']);
    const other = await endpoint(['approval.requested']);
    const agent = await createTestAgent(t.db, teamId);
    const run = await createTestRun(t.db, agent);
    await t.db.run.update({ where: { id: run.runId }, data: { status: 'cancelled', finishedAt: new Date() } });
    for (const hook of [first, second]) {
      const [request] = await hook.receiver.waitFor(1);
      expect(verifyReceived(request!, hook.secret)).toMatchObject({
        type: 'run.finished',
        data: { runId: run.runId, status: 'cancelled', previousStatus: 'queued' },
      });
    }
    // (Endpoints of earlier tests in this team are subscribed too; these three are the ones looked at.)
    const rows = await t.db.webhookDelivery.findMany({
      where: { eventType: 'run.finished', body: { contains: run.runId }, endpointId: { in: [first.id, second.id, other.id] } },
    });
    expect(rows.map((r) => r.endpointId).sort()).toEqual([first.id, second.id].sort());
    expect(await t.db.webhookOutbox.count()).toBe(0);
    expect(other.receiver.requests).toHaveLength(0);
    for (const hook of [first, second, other]) await hook.receiver.close();
  });

  it('a disabled endpoint gets nothing: its pending retries are skipped and new events are not sent', async () => {
    const hook = await endpoint(['run.finished']);
    hook.receiver.reply = () => ({ status: 503 });
    // The schedule (85 s in all at this scale) keeps the delivery pending when the endpoint is disabled.
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    await hook.receiver.waitFor(1);
    await admin.api.webhooks.update({ teamId, webhookId: hook.id, enabled: false });
    expect(await deliveredOrFailed(deliveryId)).toMatchObject({ status: 'skipped' });
    // An attempt claimed just before the disable may still be finishing.
    await waitFor(async () => (await delivery(deliveryId)).leaseUntil === null, 10_000, 'the last attempt to end');
    const seen = hook.receiver.requests.length;
    const agent = await createTestAgent(t.db, teamId);
    const run = await createTestRun(t.db, agent);
    await t.db.run.update({ where: { id: run.runId }, data: { status: 'failed', error: 'x', finishedAt: new Date() } });
    // A later event for an enabled endpoint arrives, so the dispatcher has run since.
    const witness = await endpoint(['run.finished']);
    await t.db.run.update({ where: { id: (await createTestRun(t.db, agent)).runId }, data: { status: 'succeeded', finishedAt: new Date() } });
    await witness.receiver.waitFor(1);
    await waitFor(
      async () => (await t.db.webhookDelivery.count({ where: { status: 'pending', endpointId: witness.id } })) === 0,
      10_000,
      'the witness delivery',
    );
    expect(hook.receiver.requests).toHaveLength(seen);
    expect(await t.db.webhookDelivery.count({ where: { endpointId: hook.id, status: { in: ['pending', 'delivered'] } } })).toBe(0);
    for (const h of [hook, witness]) await h.receiver.close();
  });

  it('a rotated secret signs the next delivery: the old secret fails verification, the new one passes', async () => {
    const hook = await endpoint();
    const before = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    await deliveredOrFailed(before.deliveryId);
    expect(verifyReceived(hook.receiver.requests[0]!, hook.secret)).toMatchObject({ type: 'webhook.test' });
    const { secret } = await admin.api.webhooks.rotateSecret({ teamId, webhookId: hook.id });
    const after = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    expect(await deliveredOrFailed(after.deliveryId)).toMatchObject({ status: 'delivered' });
    const request = hook.receiver.requests[1]!;
    expect(request.id).toBe(after.deliveryId);
    expect(() => verifyReceived(request, hook.secret)).toThrow(/signature/i);
    expect(verifyReceived(request, secret)).toMatchObject({ type: 'webhook.test' });
    await hook.receiver.close();
  });

  it('failing for the disable window disables the endpoint, with an audit row saying so', async () => {
    const hook = await endpoint();
    hook.receiver.reply = () => ({ status: 500, body: 'down' });
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    const endpointRow = await waitFor(
      async () => {
        const row = await t.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
        return row.disabledAt ? row : undefined;
      },
      20_000,
      'the endpoint to be disabled',
    );
    expect(endpointRow.disabledReason).toMatch(/^every attempt failed for 1\.5 s \(since .+Z\), the last: answered 500$/);
    expect(await delivery(deliveryId)).toMatchObject({ status: 'skipped' });
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { teamId, action: 'webhook.disabled', targetId: hook.id } });
    expect(audit).toMatchObject({ actorType: 'system', actorId: 'webhooks' });
    expect(audit.data).toMatchObject({ url: hook.receiver.url, reason: endpointRow.disabledReason, deliveryId });
    // Re-enabled, it receives again.
    hook.receiver.reply = () => ({ status: 200 });
    await admin.api.webhooks.update({ teamId, webhookId: hook.id, enabled: true });
    const again = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    expect(await deliveredOrFailed(again.deliveryId)).toMatchObject({ status: 'delivered' });
    await hook.receiver.close();
  });

  it('410 Gone disables the endpoint at once', async () => {
    const hook = await endpoint();
    hook.receiver.reply = () => ({ status: 410 });
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    expect(await deliveredOrFailed(deliveryId)).toMatchObject({ status: 'skipped', attempts: 1 });
    expect(await t.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).toMatchObject({ disabledReason: 'the endpoint answered 410 Gone' });
    expect(hook.receiver.requests).toHaveLength(1);
    await hook.receiver.close();
  });

  it('a pending delivery whose job went missing is sent by the sweep', async () => {
    const hook = await endpoint();
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    await deliveredOrFailed(deliveryId);
    // As if Redis lost the job of a pending delivery: the row says a job was added, none exists.
    await t.db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'pending', nextAttemptAt: new Date(Date.now() - 60_000), enqueuedAt: new Date(), deliveredAt: null },
    });
    await hook.receiver.waitFor(2);
    expect(await deliveredOrFailed(deliveryId)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(hook.receiver.requests.map((r) => r.id)).toEqual([deliveryId, deliveryId]);
    await hook.receiver.close();
  });
});

describe('a worker killed during a delivery', () => {
  it('loses no event: a new worker takes the delivery over, with the same webhook-id', async () => {
    // The in-process delivery stops; a separate process does the first attempt and is killed in it.
    await stack?.close();
    stack = null;
    const hook = await endpoint();
    hook.receiver.reply = (_request, index) => (index === 0 ? 'hold' : { status: 200, body: 'got it' });
    const child = await spawnWebhooksProcess({ databaseUrl: t.url, prefix, lockDurationMs: 1000, attemptTimeoutMs: 1000 });
    const { deliveryId } = await admin.api.webhooks.test({ teamId, webhookId: hook.id });
    await hook.receiver.waitFor(1);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect((await delivery(deliveryId)).status).toBe('pending');
    stack = await startTestWebhooks(t.url, prefix, { disableAfterMs: DISABLE_AFTER_MS });
    const done = await deliveredOrFailed(deliveryId, 30_000);
    expect(done).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
    expect(done.attemptsLog.map((a) => [a.number, a.statusCode, a.error])).toEqual([
      [1, null, 'no outcome: the worker stopped during the attempt'],
      [2, 200, null],
    ]);
    expect(hook.receiver.requests.map((r) => r.id)).toEqual([deliveryId, deliveryId]);
    for (const request of hook.receiver.requests) expect(verifyReceived(request, hook.secret)).toMatchObject({ type: 'webhook.test' });
    await hook.receiver.close();
  });
});
