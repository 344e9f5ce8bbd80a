import { createDispatch, type ScheduleFireDeps } from '@looplane/api/scheduler';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, lockSchedule, type PgPool } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createTestClient, uniquePrefix, type TestClient } from '../testing/test-runtime';
import { ScheduleLoop, type Sleep } from './schedule-loop';

/**
 * The scheduler loop over a real database and queue, on a clock the test sets: what one pass
 * fires, how long it then sleeps, and that it stops when asked.
 */

let t: TestDatabase;
let pool: PgPool;
let client: TestClient;
let fx: TeamFixture;
let agentId: string;
const logger = createLogger({ level: 'silent' });

/** A clock only the test moves. */
function fakeClock(at: Date) {
  let now = at.getTime();
  return {
    now: () => now,
    set: (next: Date) => {
      now = next.getTime();
    },
  };
}

function loopAt(clock: { now(): number }, options: { maxSleepMs?: number; sleep?: Sleep } = {}) {
  const fire: ScheduleFireDeps = {
    db: t.db,
    dispatch: createDispatch(client.queue, client.bus),
    runLimits: { perMinute: 0, maxQueued: 0 },
    clock,
    onError: (error) => {
      throw error;
    },
  };
  return new ScheduleLoop({ fire, pool, maxSleepMs: options.maxSleepMs ?? 1000, logger, ...(options.sleep ? { sleep: options.sleep } : {}) });
}

let seq = 0;
async function createSchedule(extra: Record<string, unknown> = {}) {
  const operator = await callerAs({ db: t.db, dispatch: createDispatch(client.queue, client.bus) }, { userId: fx.members.operator.id });
  return operator.schedules.create({ teamId: fx.teamId, name: `loop-${++seq}`, agentId, everySeconds: 60, goal: 'tick {{scheduledAt}}', ...extra });
}
const runsOf = (scheduleId: string) => t.db.run.findMany({ where: { scheduleId }, orderBy: { scheduledAt: 'asc' } });

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  client = await createTestClient(uniquePrefix('schedule-loop'));
  fx = await createTeamFixture(t.db);
  agentId = (await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'done' }] })).agentId;
});

afterAll(async () => {
  await client?.close();
  await pool?.end();
  await t?.drop();
});

describe('the scheduler loop', () => {
  it('with nothing enabled, sleeps the longest it may', async () => {
    expect(await loopAt(fakeClock(new Date()), { maxSleepMs: 700 }).pass()).toBe(700);
  });

  it('a pass fires the due tick once, then sleeps until the next tick, at most the cap', async () => {
    const schedule = await createSchedule();
    const tick = schedule.nextFireAt!;
    const clock = fakeClock(new Date(tick.getTime() + 5));
    expect(await loopAt(clock, { maxSleepMs: 120_000 }).pass()).toBe(60_000 - 5);
    expect(await loopAt(clock, { maxSleepMs: 1000 }).pass()).toBe(1000);
    expect((await runsOf(schedule.id)).map((r) => r.scheduledAt)).toEqual([tick]);
    await t.db.schedule.update({ where: { id: schedule.id }, data: { enabled: false, nextFireAt: null } });
  });

  it('a schedule several ticks behind (within the grace) catches up in one pass, tick by tick', async () => {
    const schedule = await createSchedule({ everySeconds: 10, overlap: 'queue' });
    const first = schedule.nextFireAt!.getTime();
    const clock = fakeClock(new Date(first + 20_005));
    expect(await loopAt(clock, { maxSleepMs: 60_000 }).pass()).toBe(10_000 - 5);
    expect((await runsOf(schedule.id)).map((r) => r.scheduledAt!.getTime())).toEqual([first, first + 10_000, first + 20_000]);
    await t.db.schedule.update({ where: { id: schedule.id }, data: { enabled: false, nextFireAt: null } });
  });

  it('a due schedule another worker holds is looked at again soon, not in a tight loop; fired once it is free', async () => {
    const schedule = await createSchedule();
    const clock = fakeClock(new Date(schedule.nextFireAt!.getTime() + 5));
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      expect(await lockSchedule(holder, fx.teamId, schedule.id)).not.toBeNull();
      expect(await loopAt(clock, { maxSleepMs: 1000 }).pass()).toBe(250);
      expect(await runsOf(schedule.id)).toHaveLength(0);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await loopAt(clock, { maxSleepMs: 1000 }).pass()).toBe(1000);
    expect(await runsOf(schedule.id)).toHaveLength(1);
    await t.db.schedule.update({ where: { id: schedule.id }, data: { enabled: false, nextFireAt: null } });
  });

  it('settles failure streaks: a schedule whose runs failed pauseAfterFailures times in a row is paused by the next pass', async () => {
    const schedule = await createSchedule({ pauseAfterFailures: 1 });
    const clock = fakeClock(new Date(schedule.nextFireAt!.getTime() + 5));
    const loop = loopAt(clock);
    await loop.pass();
    await t.db.run.updateMany({ where: { scheduleId: schedule.id }, data: { status: 'failed', finishedAt: new Date() } });
    // The first pass settled already: the next settles once the loop's clock says a few seconds passed.
    clock.set(new Date(clock.now() + 10_000));
    await loop.pass();
    expect(await t.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).toMatchObject({ enabled: false, consecutiveFailures: 1 });
    expect(await t.db.auditLog.count({ where: { action: 'schedule.paused', targetId: schedule.id, actorType: 'system' } })).toBe(1);
  });

  it('stop cuts the sleep short and ends the loop after the pass in flight', async () => {
    const sleeps: number[] = [];
    // A sleep that only ends when the loop is stopped: if stop did not abort it, this test would hang.
    const sleep: Sleep = (ms, signal) => {
      sleeps.push(ms);
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    };
    const loop = loopAt(fakeClock(new Date()), { maxSleepMs: 30_000, sleep });
    loop.start();
    await expect.poll(() => sleeps.length).toBe(1);
    await loop.stop();
    expect(sleeps).toEqual([30_000]);
  });
});
