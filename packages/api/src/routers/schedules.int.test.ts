import { describe, expect, it } from 'vitest';
import { fireDueSchedules, settleScheduleStreaks, type ScheduleFireDeps } from '../services/schedule-fire.service';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });

/** A clock the test sets: the scheduler's only notion of now. */
function fakeClock(start: Date) {
  let now = start.getTime();
  return {
    now: () => now,
    set: (at: Date) => {
      now = at.getTime();
    },
  };
}
const fireDeps = (clock: { now(): number }): ScheduleFireDeps => ({
  ...tb.deps,
  clock,
  onError: (error) => {
    throw error;
  },
});

let seq = 0;
async function createSchedule(extra: Record<string, unknown> = {}) {
  const operator = await tb.as('operator');
  return operator.schedules.create({
    teamId: tb.fx.teamId,
    name: `schedule-${++seq}-${Date.now()}`,
    agentId: tb.agent.agentId,
    everySeconds: 60,
    goal: 'report at {{scheduledAt}}',
    ...extra,
  });
}
const runsOf = (scheduleId: string) => tb.db.run.findMany({ where: { scheduleId }, orderBy: { scheduledAt: 'asc' } });
const ticksOf = (scheduleId: string) => tb.db.scheduleTick.findMany({ where: { scheduleId }, orderBy: { scheduledAt: 'asc' } });

describe('schedules', () => {
  it('create sets the next fire time, audits, and refuses a second schedule of the same name', async () => {
    const before = Date.now();
    const created = await createSchedule({ cron: '0 9 * * 1-5', everySeconds: undefined, timezone: 'Europe/Berlin' });
    expect(created).toMatchObject({ enabled: true, overlap: 'skip', catchUp: 'latest', pauseAfterFailures: 5, timezone: 'Europe/Berlin' });
    expect(created.nextFireAt!.getTime()).toBeGreaterThan(before);
    expect(await tb.db.auditLog.count({ where: { action: 'schedule.created', targetId: created.id } })).toBe(1);
    const operator = await tb.as('operator');
    await expect(
      operator.schedules.create({ teamId: tb.fx.teamId, name: created.name, agentId: tb.agent.agentId, everySeconds: 5, goal: 'x' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const viewer = await tb.as('viewer');
    expect((await viewer.schedules.list({ teamId: tb.fx.teamId })).map((s) => s.id)).toContain(created.id);
    expect(await viewer.schedules.get({ teamId: tb.fx.teamId, scheduleId: created.id })).toMatchObject({ id: created.id, ticks: [] });
  });

  it('a due tick makes exactly one run, linked and keyed by the tick, with {{scheduledAt}} rendered; the schedule advances', async () => {
    const schedule = await createSchedule();
    const tick = schedule.nextFireAt!;
    const clock = fakeClock(new Date(tick.getTime() + 10));
    // Two schedulers race for the same tick: one run.
    const stepped = await Promise.all([fireDueSchedules(fireDeps(clock)), fireDueSchedules(fireDeps(clock))]);
    expect(stepped.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await fireDueSchedules(fireDeps(clock))).toBe(0);
    const runs = await runsOf(schedule.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ scheduledAt: tick, goal: `report at ${tick.toISOString()}`, agentId: tb.agent.agentId, status: 'queued' });
    expect(await ticksOf(schedule.id)).toMatchObject([{ outcome: 'started', runId: runs[0]!.id, scheduledAt: tick }]);
    const after = await tb.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } });
    expect(after.nextFireAt).toEqual(new Date(tick.getTime() + 60_000));
    expect(after.lastFiredAt).toEqual(tick);
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { action: 'run.created', targetId: runs[0]!.id } });
    expect(audit).toMatchObject({ actorType: 'system' });
  });

  it('overlap skip records the tick as skipped while the previous run is unfinished', async () => {
    const schedule = await createSchedule();
    const first = schedule.nextFireAt!;
    const clock = fakeClock(new Date(first.getTime() + 5));
    await fireDueSchedules(fireDeps(clock));
    clock.set(new Date(first.getTime() + 60_005));
    await fireDueSchedules(fireDeps(clock));
    expect(await runsOf(schedule.id)).toHaveLength(1);
    const ticks = await ticksOf(schedule.id);
    expect(ticks.map((t) => t.outcome)).toEqual(['started', 'skipped']);
    expect(ticks[1]!.reason).toMatch(/still queued \(overlap: skip\)/);
  });

  it('overlap cancel_previous cancels the unfinished run, then starts the tick', async () => {
    const schedule = await createSchedule({ overlap: 'cancel_previous' });
    const first = schedule.nextFireAt!;
    const clock = fakeClock(new Date(first.getTime() + 5));
    await fireDueSchedules(fireDeps(clock));
    clock.set(new Date(first.getTime() + 60_005));
    await fireDueSchedules(fireDeps(clock));
    const runs = await runsOf(schedule.id);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.cancelRequestedAt).not.toBeNull();
    expect(runs[1]!.cancelRequestedAt).toBeNull();
  });

  it('a 2-hour outage with catchUp latest makes one run (the latest tick), the missed ticks recorded once as skipped', async () => {
    const schedule = await createSchedule({ overlap: 'queue' });
    const now = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 30_000);
    await tb.db.schedule.update({ where: { id: schedule.id }, data: { nextFireAt: new Date(now.getTime() - 2 * 3600_000 - 30_000) } });
    const clock = fakeClock(now);
    while ((await fireDueSchedules(fireDeps(clock))) > 0);
    const runs = await runsOf(schedule.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.scheduledAt).toEqual(new Date(now.getTime() - 30_000));
    expect((await ticksOf(schedule.id)).map((t) => t.outcome)).toEqual(['skipped', 'started']);
    expect((await tb.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).nextFireAt).toEqual(new Date(now.getTime() + 30_000));
  });

  it('catchUp none drops an outage’s ticks and makes no run', async () => {
    const schedule = await createSchedule({ catchUp: 'none', everySeconds: 600 });
    const now = new Date(Math.ceil(Date.now() / 600_000) * 600_000 + 300_000);
    await tb.db.schedule.update({ where: { id: schedule.id }, data: { nextFireAt: new Date(now.getTime() - 2 * 3600_000 - 30_000) } });
    const clock = fakeClock(now);
    while ((await fireDueSchedules(fireDeps(clock))) > 0);
    expect(await runsOf(schedule.id)).toHaveLength(0);
    expect((await ticksOf(schedule.id)).map((t) => t.outcome)).toEqual(['skipped']);
  });

  it('pausing stops further runs at once; resuming starts from the next tick after now', async () => {
    const schedule = await createSchedule({ everySeconds: 1, overlap: 'queue' });
    const operator = await tb.as('operator');
    const paused = await operator.schedules.pause({ teamId: tb.fx.teamId, scheduleId: schedule.id });
    expect(paused).toMatchObject({ enabled: false, nextFireAt: null });
    const clock = fakeClock(new Date(Date.now() + 3600_000));
    await fireDueSchedules(fireDeps(clock));
    expect(await runsOf(schedule.id)).toHaveLength(0);
    const resumed = await operator.schedules.resume({ teamId: tb.fx.teamId, scheduleId: schedule.id });
    expect(resumed.enabled).toBe(true);
    expect(resumed.nextFireAt!.getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(await tb.db.auditLog.count({ where: { targetId: schedule.id, action: { in: ['schedule.paused', 'schedule.resumed'] } } })).toBe(2);
  });

  it('runNow starts a run as the caller without moving the next tick; delete keeps the runs', async () => {
    const schedule = await createSchedule();
    const operator = await tb.as('operator');
    const { runId } = await operator.schedules.runNow({ teamId: tb.fx.teamId, scheduleId: schedule.id });
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.scheduleId).toBe(schedule.id);
    expect((await tb.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).nextFireAt).toEqual(schedule.nextFireAt);
    await operator.schedules.delete({ teamId: tb.fx.teamId, scheduleId: schedule.id });
    expect(await tb.db.schedule.count({ where: { id: schedule.id } })).toBe(0);
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).scheduleId).toBeNull();
  });

  it('pauseAfterFailures failed runs in a row pause the schedule once, with a system audit row and schedule.paused', async () => {
    const admin = await tb.as('admin');
    await tb.db.webhookEndpoint.create({
      data: { teamId: tb.fx.teamId, url: 'http://127.0.0.1:9/x', events: ['schedule.paused'], secretCiphertext: 'sealed' },
    });
    const schedule = await createSchedule({ pauseAfterFailures: 2, overlap: 'queue' });
    const clock = fakeClock(new Date(schedule.nextFireAt!.getTime() + 5));
    const fail = async () => {
      await fireDueSchedules(fireDeps(clock));
      await tb.db.run.updateMany({ where: { scheduleId: schedule.id, status: 'queued' }, data: { status: 'failed', finishedAt: new Date() } });
      clock.set(new Date(clock.now() + 60_000));
    };
    await fail();
    expect(await settleScheduleStreaks(fireDeps(clock))).toEqual([]);
    expect((await tb.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).consecutiveFailures).toBe(1);
    await fail();
    const [a, b] = await Promise.all([settleScheduleStreaks(fireDeps(clock)), settleScheduleStreaks(fireDeps(clock))]);
    expect([...a!, ...b!]).toEqual([schedule.id]);
    const after = await admin.schedules.get({ teamId: tb.fx.teamId, scheduleId: schedule.id });
    expect(after).toMatchObject({ enabled: false, nextFireAt: null, consecutiveFailures: 2, pausedReason: 'paused after 2 failed runs in a row' });
    expect(await tb.db.auditLog.findMany({ where: { action: 'schedule.paused', targetId: schedule.id } })).toMatchObject([{ actorType: 'system' }]);
    const outbox = await tb.db.webhookOutbox.findMany({ where: { teamId: tb.fx.teamId, type: 'schedule.paused' } });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.data).toMatchObject({ scheduleId: schedule.id, consecutiveFailures: 2 });
    await fireDueSchedules(fireDeps({ now: () => clock.now() + 3600_000 }));
    expect(await runsOf(schedule.id)).toHaveLength(2);
  });
});
