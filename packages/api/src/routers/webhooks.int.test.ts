import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '@looplane/db';
import { newDeliveryId } from '@looplane/webhooks';
import { apiTestbed } from '../testing/testbed';

const box = new SecretBox(randomBytes(32).toString('base64'));
// Private addresses allowed, so the tests can point endpoints at 127.0.0.1; the refusals below use an API without.
const tb = apiTestbed({ agent: true, deps: { secretBox: box, webhooks: { allowPrivate: true } } });
const URL_A = 'http://127.0.0.1:9/hook-a';
const publicOnly = () => ({ ...tb.deps, webhooks: { allowPrivate: false } });
const bigintSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

async function createEndpoint(events: string[] = ['run.finished']) {
  const admin = await tb.as('admin');
  return admin.webhooks.create({ teamId: tb.fx.teamId, url: URL_A, events: events as never, description: 'ops' });
}

describe('webhook endpoints', () => {
  it('create answers the signing secret once and seals it; nothing else ever shows it', async () => {
    const admin = await tb.as('admin');
    const created = await admin.webhooks.create({
      teamId: tb.fx.teamId,
      url: URL_A,
      events: ['approval.requested', 'run.finished', 'run.finished'],
      description: 'ops channel',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(created.webhook).toMatchObject({
      url: URL_A,
      events: ['run.finished', 'approval.requested'],
      description: 'ops channel',
      enabled: true,
      disabledAt: null,
    });
    const row = await tb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook.id } });
    expect(row.secretCiphertext).not.toContain(created.secret.slice(6, 20));
    expect(box.open(row.secretCiphertext)).toBe(created.secret);

    const listed = await admin.webhooks.list({ teamId: tb.fx.teamId });
    const got = await admin.webhooks.get({ teamId: tb.fx.teamId, webhookId: created.webhook.id });
    expect(got).toMatchObject({ id: created.webhook.id, deliveries: { pending: 0, delivered: 0, failed: 0, skipped: 0 } });
    for (const shown of [listed, got]) expect(JSON.stringify(shown)).not.toMatch(/whsec_|secretCiphertext|v1\./);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'webhook.created', targetId: created.webhook.id } });
    expect(audit.data).toEqual({ url: URL_A, events: ['run.finished', 'approval.requested'], description: 'ops channel' });
    expect(JSON.stringify(await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId } }), bigintSafe)).not.toContain(created.secret);
  });

  it('without an encryption key, create and rotate are refused and write nothing', async () => {
    const created = await createEndpoint();
    const keyless = await tb.as('admin', { ...tb.deps, secretBox: null });
    const before = await tb.db.webhookEndpoint.count();
    await expect(keyless.webhooks.create({ teamId: tb.fx.teamId, url: URL_A, events: ['run.finished'] })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot store webhook signing secrets',
    });
    await expect(keyless.webhooks.rotateSecret({ teamId: tb.fx.teamId, webhookId: created.webhook.id })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(await tb.db.webhookEndpoint.count()).toBe(before);
    expect((await tb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook.id } })).secretRotatedAt).toBeNull();
  });

  it('an address that is not public is refused at create and update, saying why, unless private ones are allowed', async () => {
    const strict = await tb.as('admin', publicOnly());
    const refused: [string, RegExp][] = [
      ['http://127.0.0.1:8080/hook', /url: 127\.0\.0\.1 is a loopback address/],
      ['http://10.20.30.40/hook', /url: 10\.20\.30\.40 is a private address/],
      ['http://169.254.169.254/latest/meta-data', /url: 169\.254\.169\.254 is a link-local address/],
      ['http://[::1]:8080/hook', /url: ::1 is a loopback address/],
      ['http://[::ffff:127.0.0.1]/hook', /url: ::ffff:7f00:1 is an IPv4-mapped form of a loopback address/],
      ['http://localhost:8080/hook', /url: localhost resolves to .*, which is a loopback address/],
    ];
    const before = await tb.db.webhookEndpoint.count();
    for (const [url, message] of refused) {
      await expect(strict.webhooks.create({ teamId: tb.fx.teamId, url, events: ['run.finished'] }), url).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(message),
      });
    }
    expect(await tb.db.webhookEndpoint.count()).toBe(before);
    const created = await createEndpoint();
    await expect(strict.webhooks.update({ teamId: tb.fx.teamId, webhookId: created.webhook.id, url: 'http://192.168.1.10/hook' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/private address: webhooks go to public addresses only \(LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true allows others\)/),
    });
    // An unchanged URL is not checked again (the worker checks it at every attempt).
    await expect(strict.webhooks.update({ teamId: tb.fx.teamId, webhookId: created.webhook.id, url: URL_A, description: 'same place' })).resolves.toMatchObject(
      { description: 'same place' },
    );
    expect((await tb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.webhook.id } })).url).toBe(URL_A);
  });

  it('disabling skips pending deliveries; enabling forgets why it was disabled; both are audited', async () => {
    const admin = await tb.as('admin');
    const { webhook } = await createEndpoint();
    await tb.db.webhookEndpoint.update({ where: { id: webhook.id }, data: { failingSince: new Date(Date.now() - 60_000) } });
    const pending = await tb.db.webhookDelivery.create({
      data: { id: newDeliveryId(), teamId: tb.fx.teamId, endpointId: webhook.id, eventType: 'run.finished', body: '{}', nextAttemptAt: new Date() },
    });
    const off = await admin.webhooks.update({ teamId: tb.fx.teamId, webhookId: webhook.id, enabled: false });
    expect(off).toMatchObject({ enabled: false, disabledReason: 'disabled by an admin' });
    expect(await tb.db.webhookDelivery.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({ status: 'skipped', nextAttemptAt: null });
    await expect(admin.webhooks.test({ teamId: tb.fx.teamId, webhookId: webhook.id })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringMatching(/disabled \(disabled by an admin\); enable it first/),
    });
    const on = await admin.webhooks.update({ teamId: tb.fx.teamId, webhookId: webhook.id, enabled: true, events: ['run.waiting', 'budget.exceeded'] });
    expect(on).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null, events: ['run.waiting', 'budget.exceeded'] });
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, action: 'webhook.updated', targetId: webhook.id }, orderBy: { seq: 'asc' } });
    expect(audit.map((a) => a.data)).toEqual([
      { url: URL_A, changes: { enabled: false }, skippedDeliveries: 1 },
      { url: URL_A, changes: { events: ['run.waiting', 'budget.exceeded'], enabled: true } },
    ]);
  });

  it('rotateSecret answers a new secret, seals it in place of the old one, and is audited', async () => {
    const admin = await tb.as('admin');
    const { webhook, secret } = await createEndpoint();
    const rotated = await admin.webhooks.rotateSecret({ teamId: tb.fx.teamId, webhookId: webhook.id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.webhook.secretRotatedAt).toBeInstanceOf(Date);
    expect(box.open((await tb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhook.id } })).secretCiphertext)).toBe(rotated.secret);
    expect(await tb.db.auditLog.count({ where: { teamId: tb.fx.teamId, action: 'webhook.secret_rotated', targetId: webhook.id } })).toBe(1);
  });

  it('test makes a pending webhook.test delivery for the dispatcher to send', async () => {
    const admin = await tb.as('admin');
    const { webhook } = await createEndpoint();
    const { deliveryId } = await admin.webhooks.test({ teamId: tb.fx.teamId, webhookId: webhook.id });
    const row = await tb.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ endpointId: webhook.id, eventType: 'webhook.test', status: 'pending', enqueuedAt: null, outboxId: null });
    expect(JSON.parse(row.body)).toMatchObject({ type: 'webhook.test', timestamp: expect.any(String), data: { webhookId: webhook.id } });
    expect(await tb.db.auditLog.count({ where: { teamId: tb.fx.teamId, action: 'webhook.test_sent', targetId: webhook.id } })).toBe(1);
  });

  it('deliveries pages the log newest first, with each attempt; a cursor of another webhook is refused', async () => {
    const admin = await tb.as('admin');
    const { webhook } = await createEndpoint();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = newDeliveryId();
      ids.push(id);
      await tb.db.webhookDelivery.create({
        data: {
          id,
          teamId: tb.fx.teamId,
          endpointId: webhook.id,
          eventType: 'run.finished',
          body: `{"n":${i}}`,
          createdAt: new Date(Date.now() - (5 - i) * 1000),
          status: i === 4 ? 'pending' : 'delivered',
          attempts: 2,
          nextAttemptAt: new Date(Date.now() + 5000),
          attemptsLog: {
            create: [
              { number: 1, statusCode: 500, latencyMs: 12, responseExcerpt: 'boom', error: 'answered 500' },
              { number: 2, statusCode: 200, latencyMs: 8 },
            ],
          },
        },
      });
    }
    const first = await admin.webhooks.deliveries({ teamId: tb.fx.teamId, webhookId: webhook.id, limit: 2 });
    expect(first.items.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(Date), inFlight: false, eventType: 'run.finished' });
    expect(first.items[1]).toMatchObject({ status: 'delivered', nextAttemptAt: null });
    expect(first.items[1]!.attemptLog).toEqual([
      { number: 1, at: expect.any(Date), statusCode: 500, latencyMs: 12, responseExcerpt: 'boom', error: 'answered 500' },
      { number: 2, at: expect.any(Date), statusCode: 200, latencyMs: 8, responseExcerpt: null, error: null },
    ]);
    const second = await admin.webhooks.deliveries({ teamId: tb.fx.teamId, webhookId: webhook.id, limit: 2, cursor: first.nextCursor! });
    const third = await admin.webhooks.deliveries({ teamId: tb.fx.teamId, webhookId: webhook.id, limit: 2, cursor: second.nextCursor! });
    expect([...second.items, ...third.items].map((d) => d.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeNull();
    const other = await createEndpoint();
    await expect(admin.webhooks.deliveries({ teamId: tb.fx.teamId, webhookId: other.webhook.id, cursor: ids[0]! })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'cursor: not a delivery of this webhook',
    });
  });

  it('redeliver sends a finished delivery again from the start of the schedule; not while an attempt is in flight', async () => {
    const admin = await tb.as('admin');
    const { webhook } = await createEndpoint();
    const id = newDeliveryId();
    await tb.db.webhookDelivery.create({
      data: {
        id,
        teamId: tb.fx.teamId,
        endpointId: webhook.id,
        eventType: 'run.finished',
        body: '{}',
        status: 'failed',
        attempts: 11,
        scheduleStep: 11,
        enqueuedAt: new Date(),
      },
    });
    expect(await admin.webhooks.redeliver({ teamId: tb.fx.teamId, deliveryId: id })).toEqual({ id, status: 'pending' });
    expect(await tb.db.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'pending',
      scheduleStep: 0,
      attempts: 11,
      enqueuedAt: null,
      nextAttemptAt: expect.any(Date),
    });
    expect((await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'webhook.redelivered' } })).data).toEqual({
      deliveryId: id,
      eventType: 'run.finished',
      previousStatus: 'failed',
    });
    await tb.db.webhookDelivery.update({ where: { id }, data: { leaseUntil: new Date(Date.now() + 60_000) } });
    await expect(admin.webhooks.redeliver({ teamId: tb.fx.teamId, deliveryId: id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('delete removes the endpoint and its log; it is audited', async () => {
    const admin = await tb.as('admin');
    const { webhook } = await createEndpoint();
    await admin.webhooks.test({ teamId: tb.fx.teamId, webhookId: webhook.id });
    expect(await admin.webhooks.delete({ teamId: tb.fx.teamId, webhookId: webhook.id })).toEqual({ id: webhook.id, deleted: true });
    expect(await tb.db.webhookDelivery.count({ where: { endpointId: webhook.id } })).toBe(0);
    await expect(admin.webhooks.get({ teamId: tb.fx.teamId, webhookId: webhook.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'webhook.deleted', targetId: webhook.id } })).data).toEqual({
      url: URL_A,
      events: ['run.finished'],
    });
  });
});

describe('capture triggers', () => {
  it('write an outbox row only for a team with an enabled endpoint subscribed to the event', async () => {
    const run = await (await tb.as('admin')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'capture' });
    await tb.db.webhookEndpoint.updateMany({ where: { teamId: tb.fx.teamId }, data: { disabledAt: new Date() } });
    const outbox = () => tb.db.webhookOutbox.findMany({ where: { teamId: tb.fx.teamId }, orderBy: { id: 'asc' } });
    // Only disabled endpoints: nothing, whatever happens.
    await tb.db.run.update({ where: { id: run.runId }, data: { status: 'waiting', waitReason: 'message' } });
    expect(await outbox()).toEqual([]);
    // Subscribed to run.finished only: a wait says nothing, the finish does (once, not again for an unrelated update).
    const { webhook } = await createEndpoint(['run.finished']);
    await tb.db.run.update({ where: { id: run.runId }, data: { status: 'running', waitReason: null } });
    await tb.db.run.update({ where: { id: run.runId }, data: { status: 'waiting', waitReason: 'budget' } });
    await tb.db.run.update({ where: { id: run.runId }, data: { status: 'succeeded', waitReason: null, result: 'done', finishedAt: new Date() } });
    await tb.db.run.update({ where: { id: run.runId }, data: { status: 'succeeded', result: 'done again' } });
    const rows = await outbox();
    expect(rows.map((r) => [r.type, r.endpointIds])).toEqual([['run.finished', [webhook.id]]]);
    expect(rows[0]!.data).toMatchObject({ runId: run.runId, status: 'succeeded', previousStatus: 'waiting', result: 'done', goal: 'capture' });
  });
});
