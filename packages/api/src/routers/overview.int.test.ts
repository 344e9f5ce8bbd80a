import { describe, expect, it } from 'vitest';
import type { Prisma } from '@looplane/db';
import { createAgentFixture, createTeamFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });
const DAY = 86_400_000;
let seq = 0;

type RunRow = Partial<Prisma.RunUncheckedCreateInput>;

/** A run of the team as the API and worker leave it, with a main session. */
async function run(data: RunRow & { agentId?: string | null } = {}) {
  const created = await tb.db.run.create({ data: { teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: `goal ${seq++}`, ...data } });
  const session = await tb.db.session.create({ data: { runId: created.id, agentId: created.agentId, config: {} } });
  await tb.db.run.update({ where: { id: created.id }, data: { rootSessionId: session.id, mainSessionId: session.id } });
  return { runId: created.id, sessionId: session.id };
}

/** A `model.responded` event costing `costMicros` at `at`. */
async function spent(r: { runId: string; sessionId: string }, costMicros: number, at: Date) {
  const eventNo = seq++;
  await tb.db.event.create({
    data: {
      runId: r.runId,
      sessionId: r.sessionId,
      seq: eventNo,
      eventNo,
      type: 'model.responded',
      payload: { requestId: `q${eventNo}`, costMicros, usage: { inputTokens: 1, outputTokens: 1 } },
      createdAt: at,
    },
  });
  await tb.db.run.update({ where: { id: r.runId }, data: { updatedAt: at } });
}

const count = async (filter: Record<string, unknown>) => {
  const page = await (await tb.as('viewer')).runs.list({ teamId: tb.fx.teamId, limit: 200, ...filter });
  return page.runs.length;
};

describe('overview.get', () => {
  it('counts what runs, waits (by reason), failed in a day, waits on a person and costs; each count is what its runs.list filter finds', async () => {
    const now = Date.now();
    const other = await createAgentFixture(tb.db, tb.fx.teamId);
    await run({ status: 'running' });
    await run({ status: 'running', agentId: other.agentId });
    await run({ status: 'queued' });
    const waiting = await run({ status: 'waiting', waitReason: 'approval' });
    await run({ status: 'waiting', waitReason: 'approval' });
    await run({ status: 'waiting', waitReason: 'budget' });
    await run({ status: 'waiting', waitReason: 'child' });
    await run({ status: 'failed', error: 'the model endpoint refused: 401', finishedAt: new Date(now - 60_000) });
    await run({ status: 'failed', error: 'old failure', finishedAt: new Date(now - 2 * DAY), createdAt: new Date(now - 2 * DAY) });
    await run({ status: 'succeeded', finishedAt: new Date(now - 1000) });
    const today = new Date(Math.floor(now / DAY) * DAY + 1000);
    // Oldest first, as a run's calls come (each one updates the run).
    await spent(waiting, 99_999, new Date(today.getTime() - 9 * DAY));
    await spent(waiting, 1400, new Date(today.getTime() - 6 * DAY));
    await spent(waiting, 700, new Date(today.getTime() - 2 * DAY));
    await spent(waiting, 300, new Date(Math.max(today.getTime(), now - 5000)));
    // Approvals: the oldest pending one is the one the overview links to.
    const first = await tb.db.approval.create({
      data: {
        teamId: tb.fx.teamId,
        runId: waiting.runId,
        sessionId: waiting.sessionId,
        requestSeq: 1,
        toolCallId: 'c1',
        tool: 'shell',
        args: {},
        createdAt: new Date(now - 3_600_000),
      },
    });
    await tb.db.approval.create({
      data: { teamId: tb.fx.teamId, runId: waiting.runId, sessionId: waiting.sessionId, requestSeq: 2, toolCallId: 'c2', tool: 'shell', args: {} },
    });
    await tb.db.approval.create({
      data: {
        teamId: tb.fx.teamId,
        runId: waiting.runId,
        sessionId: waiting.sessionId,
        requestSeq: 3,
        toolCallId: 'c3',
        tool: 'shell',
        args: {},
        status: 'approved',
      },
    });
    // Another team's runs and approvals count for nothing here.
    const foreign = await createTeamFixture(tb.db);
    const foreignAgent = await createAgentFixture(tb.db, foreign.teamId);
    await tb.db.run.create({ data: { teamId: foreign.teamId, agentId: foreignAgent.agentId, goal: 'not ours', status: 'running' } });

    const o = await (await tb.as('viewer')).overview.get({ teamId: tb.fx.teamId });
    expect(o.runs).toEqual({
      queued: 1,
      running: 2,
      waiting: 4,
      waitingBy: { approval: 2, budget: 1, child: 1, message: 0, isolation: 0 },
      paused: 0,
      failed24h: 1,
      succeeded24h: 1,
    });
    expect(o.approvals).toMatchObject({ pending: 2, oldestId: first.id });
    expect(o.approvals.oldestRequestedAt!.getTime()).toBe(first.createdAt.getTime());
    expect(o.spend.todayMicros).toBe(300);
    expect(o.spend.last7DaysMicros).toEqual([0, 1400, 0, 0, 0, 700, 0]);
    expect(o.spend.dailyAverageMicros).toBe(300);
    expect(o.failures.map((f) => f.error)).toEqual(['the model endpoint refused: 401', 'old failure']);
    expect(o.failures[0]).toMatchObject({ agent: expect.any(String), graph: null });
    expect(o.busiestAgents.map((a) => [a.id, a.active])).toEqual([
      [tb.agent.agentId, 6],
      [other.agentId, 1],
    ]);
    expect(o.busiestAgents[0]!.costMicros24h).toBe(300);

    // Every figure is the length of the list its link opens.
    expect(await count({ status: ['running'] })).toBe(o.runs.running);
    expect(await count({ status: ['waiting'] })).toBe(o.runs.waiting);
    expect(await count({ status: ['waiting'], waitReason: ['approval'] })).toBe(o.runs.waitingBy.approval);
    expect(await count({ status: ['waiting'], waitReason: ['budget'] })).toBe(o.runs.waitingBy.budget);
    expect(await count({ status: ['failed'], finishedSince: new Date(now - DAY) })).toBe(o.runs.failed24h);
    expect(await count({ status: ['queued', 'running', 'waiting', 'paused'], agentId: other.agentId })).toBe(o.busiestAgents[1]!.active);
    expect((await (await tb.as('viewer')).approvals.list({ teamId: tb.fx.teamId, status: 'pending' })).items).toHaveLength(o.approvals.pending);
  });

  it('lists live workers with their load and sandbox health; stopped and silent ones are left out', async () => {
    const now = Date.now();
    const probe = (workerId: string, data: Partial<Prisma.WorkerSandboxProbeUncheckedCreateInput> = {}) =>
      tb.db.workerSandboxProbe.create({
        data: { workerId, hostname: `host-${workerId}`, pid: 1, selectedDriver: 'bwrap', available: true, concurrency: 8, ...data },
      });
    await probe('w-live', {
      drivers: [
        { driver: 'bwrap', available: true, offered: true },
        { driver: 'podman', available: false, offered: false },
        { driver: 'gvisor', available: true, offered: true },
        { driver: 'dangerous-none', available: false, offered: false },
      ],
    });
    await probe('w-broken', { available: false, reason: 'bwrap: no user namespaces', concurrency: null });
    await probe('w-stopped', { stoppedAt: new Date() });
    await probe('w-silent', { lastSeenAt: new Date(now - 10 * 60_000) });
    const held = await run({ status: 'running' });
    await tb.db.session.update({ where: { id: held.sessionId }, data: { status: 'running', leaseOwner: 'w-live', leaseExpiresAt: new Date(now + 60_000) } });
    const expired = await run({ status: 'running' });
    await tb.db.session.update({ where: { id: expired.sessionId }, data: { status: 'running', leaseOwner: 'w-live', leaseExpiresAt: new Date(now - 1000) } });

    const o = await (await tb.as('viewer')).overview.get({ teamId: tb.fx.teamId });
    const mine = o.workers.filter((w) => w.workerId.startsWith('w-'));
    expect(mine.map((w) => [w.workerId, w.activeLoops, w.concurrency, w.healthy, w.reason, w.drivers])).toEqual([
      ['w-broken', 0, null, false, 'bwrap: no user namespaces', []],
      // The drivers it offers that work; a row recorded without `offered` offers its selected driver.
      ['w-live', 1, 8, true, null, ['bwrap', 'gvisor']],
    ]);
  });

  it('refuses a runs.list filter that is not a wait reason or a time, and changes nothing', async () => {
    const viewer = await tb.as('viewer');
    await expect(viewer.runs.list({ teamId: tb.fx.teamId, waitReason: ['coffee' as 'approval'] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(viewer.runs.list({ teamId: tb.fx.teamId, finishedSince: 'yesterday' as unknown as Date })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
