import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SecretBox } from '@looplane/db';
import { signWithReference } from '@looplane/webhooks/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireDueSchedules, type ScheduleFireDeps } from '../services/schedule-fire.service';
import { testRedisUrl } from '../testing/live';
import { serveApi, type ServedApi } from '../testing/node-server';
import { createAgentFixture, type AgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { triggerName } from '../routers/triggers.fixtures';
import { TriggerRateLimiter } from './trigger-rate-limit';

/**
 * A persistent agent keeps one run, its mailbox: a schedule's tick or a start_run trigger's
 * delivery is the next message to that run rather than a second run, exactly once per tick or
 * webhook-id, and a cancelled mailbox is replaced by the next delivery's new run. Real Postgres,
 * Redis and HTTP; deliveries signed with the `standardwebhooks` package.
 */
const tb = apiTestbed({ agent: true, deps: { secretBox: new SecretBox(randomBytes(32).toString('base64')) } });
let served: ServedApi;
let redis: Redis;
let inbox: AgentFixture;

beforeAll(async () => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const limiter = new TriggerRateLimiter(redis, `looplane-test:${randomBytes(6).toString('hex')}:`);
  served = await serveApi(tb.deps, { db: tb.db, bus: tb.live.bus }, 0, { limiter });
  inbox = await createAgentFixture(tb.db, tb.fx.teamId, { name: `inbox-${randomBytes(4).toString('hex')}`, persistent: true });
});
afterAll(async () => {
  await served?.close();
  redis?.disconnect();
});

const messagesOf = (runId: string) => tb.db.inboxMessage.findMany({ where: { runId }, orderBy: { createdAt: 'asc' }, select: { id: true, text: true } });
const runsOfAgent = (agentId: string) => tb.db.run.findMany({ where: { agentId }, orderBy: { createdAt: 'asc' }, select: { id: true, status: true } });

async function cancelAll(agentId: string) {
  await tb.db.run.updateMany({ where: { agentId }, data: { status: 'cancelled', finishedAt: new Date() } });
}

describe('a persistent agent’s schedule', () => {
  const clockAt = (at: number): ScheduleFireDeps => ({
    ...tb.deps,
    clock: { now: () => at },
    onError: (error) => {
      throw error;
    },
  });

  it('starts the mailbox run once; later ticks are messages to it, each sent once', async () => {
    await cancelAll(inbox.agentId);
    const operator = await tb.as('operator');
    const schedule = await operator.schedules.create({
      teamId: tb.fx.teamId,
      name: `mailbox-${randomBytes(4).toString('hex')}`,
      agentId: inbox.agentId,
      everySeconds: 60,
      goal: 'check the inbox at {{scheduledAt}}',
      overlap: 'skip',
    });
    const first = schedule.nextFireAt!.getTime();
    await fireDueSchedules(clockAt(first + 5));
    const runs = await runsOfAgent(inbox.agentId);
    const live = runs.filter((r) => r.status !== 'cancelled');
    expect(live).toHaveLength(1);
    const mailbox = live[0]!.id;

    // The next tick: overlap skip would skip a second run, but the tick is a message to the mailbox.
    const second = new Date(first + 60_000);
    await fireDueSchedules(clockAt(second.getTime() + 5));
    expect((await runsOfAgent(inbox.agentId)).filter((r) => r.status !== 'cancelled')).toHaveLength(1);
    const ticks = await tb.db.scheduleTick.findMany({ where: { scheduleId: schedule.id }, orderBy: { scheduledAt: 'asc' } });
    expect(ticks.map((t) => [t.outcome, t.runId])).toEqual([
      ['started', mailbox],
      ['started', mailbox],
    ]);
    expect(ticks[1]!.reason).toContain('message');
    expect((await messagesOf(mailbox)).map((m) => m.text)).toEqual([`check the inbox at ${second.toISOString()}`]);

    // A worker killed after the message committed but before the tick did: the tick fires again
    // and sends nothing twice.
    await tb.db.scheduleTick.delete({ where: { id: ticks[1]!.id } });
    await tb.db.schedule.update({ where: { id: schedule.id }, data: { nextFireAt: second } });
    await fireDueSchedules(clockAt(second.getTime() + 5));
    expect(await messagesOf(mailbox)).toHaveLength(1);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { action: 'run.message_sent', targetId: mailbox } });
    expect(audit).toMatchObject({ actorType: 'system', actorId: 'scheduler' });
    expect(audit.data).toMatchObject({ scheduleId: schedule.id, scheduledAt: second.toISOString() });
    await operator.schedules.delete({ teamId: tb.fx.teamId, scheduleId: schedule.id });
  });
});

describe('a start_run trigger of a persistent agent', () => {
  async function post(triggerId: string, secret: string, payload: unknown, id = `msg_${randomBytes(8).toString('hex')}`) {
    const body = JSON.stringify(payload);
    const response = await fetch(`${served.url}/api/hooks/${triggerId}`, {
      method: 'POST',
      headers: { ...signWithReference(secret, id, new Date(), body), 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as { runId?: string; messageId?: string } };
  }

  it('messages the mailbox run; a cancelled mailbox is replaced by a new run', async () => {
    await cancelAll(inbox.agentId);
    const admin = await tb.as('admin');
    const { trigger, secret } = await admin.triggers.create({
      teamId: tb.fx.teamId,
      name: triggerName(),
      target: { type: 'start_run', agentId: inbox.agentId, goalTemplate: 'New mail: {{payload.subject}}' },
      auth: 'standard_webhooks',
    });
    const first = await post(trigger.id, secret, { subject: 'quote for 40 pallets' });
    expect(first.status).toBe(202);
    const mailbox = first.body.runId!;
    expect(first.body.messageId).toBeUndefined();

    const second = await post(trigger.id, secret, { subject: 'delivery date?' }, 'msg_repeatable');
    expect(second).toMatchObject({ status: 202, body: { runId: mailbox } });
    expect(second.body.messageId).toBeTruthy();
    const again = await post(trigger.id, secret, { subject: 'delivery date?' }, 'msg_repeatable');
    expect(again.body).toEqual(second.body);
    const messages = await messagesOf(mailbox);
    expect(messages.map((m) => m.id)).toEqual([second.body.messageId]);
    expect(messages[0]!.text).toContain('delivery date?');
    expect(messages[0]!.text).toContain('<untrusted-data');
    expect(await tb.db.run.count({ where: { triggerId: trigger.id } })).toBe(1);

    await cancelAll(inbox.agentId);
    const third = await post(trigger.id, secret, { subject: 'after the cancel' });
    expect(third.status).toBe(202);
    expect(third.body.runId).not.toBe(mailbox);
    expect(await tb.db.run.count({ where: { triggerId: trigger.id } })).toBe(2);
  });
});
