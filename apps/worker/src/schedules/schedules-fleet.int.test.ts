import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../build.mjs';
import { jitter, spawnWorker, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';

/**
 * Acceptance: three real worker processes (the production bundle) fire a schedule of
 * `everySeconds: 1` while they are killed -9 at random moments (just after a tick, when they are
 * firing) and replaced at once. One worker at a time is killed and at least one stays ready, so
 * the fleet is never down for longer than the grace (60 s) and catchUp never applies: every tick
 * from the first to the last must have exactly one run. A second schedule on an agent whose runs
 * take longer than its interval (`overlap: skip`) must never have two runs at once, and pausing
 * must stop the first schedule at once while the fleet keeps firing the second.
 *
 * The assertions read the ticks' and runs' rows, never timings: a slow machine makes ticks late,
 * not wrong.
 */

const TICKS = 60;
const WORKERS = 3;

let t: TestDatabase;
let client: TestClient;
let fx: TeamFixture;
let bundle: string;
const prefix = uniquePrefix('schedules');
const logDir = mkdtempSync(join(tmpdir(), 'looplane-schedules-'));
const workers = new Set<WorkerProcess>();
const ready = new Set<WorkerProcess>();
let spawned = 0;

function startWorker(): WorkerProcess {
  const worker = spawnWorker(
    {
      DATABASE_URL: t.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: prefix,
      WORKER_CONCURRENCY: '20',
      LEASE_TTL_MS: '1500',
      RECONCILE_INTERVAL_MS: '300',
      RECONCILE_IDLE_MS: '3000',
      DATABASE_POOL_SIZE: '8',
      LOOPLANE_SCHEDULER_POLL_MS: '250',
      // 60 ticks a minute plus the slow schedule's: the team's start limit is not under test here.
      LOOPLANE_RUNS_PER_MINUTE: '0',
    },
    join(logDir, `worker-${++spawned}.log`),
    [],
    bundle,
  );
  workers.add(worker);
  void worker.ready.then(() => ready.add(worker));
  void worker.exited.then(() => {
    workers.delete(worker);
    ready.delete(worker);
  });
  return worker;
}

const api = () => ({ db: t.db, dispatch: createDispatch(client.queue, client.bus) });
const operator = () => callerAs(api(), { userId: fx.members.operator.id });
const runsOf = (scheduleId: string) => t.db.run.findMany({ where: { scheduleId }, orderBy: { scheduledAt: 'asc' } });
const ticksOf = (scheduleId: string) => t.db.scheduleTick.findMany({ where: { scheduleId }, orderBy: { scheduledAt: 'asc' } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let everySecond: { id: string; firstTick: Date };
let slow: { id: string };
let kills = 0;

beforeAll(async () => {
  bundle = (await buildWorker())['worker-with-test-tools'];
  t = await createTestDatabase();
  client = await createTestClient(prefix);
  fx = await createTeamFixture(t.db);
  for (let i = 0; i < WORKERS; i++) startWorker();
  await Promise.all(
    [...workers].map((w) =>
      Promise.race([w.ready, w.exited.then((code) => Promise.reject(new Error(`a worker exited with ${code}:\n${w.output().slice(-2000)}`)))]),
    ),
  );
}, 120_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await Promise.all([...workers].map((w) => w.exited));
  await client?.close();
  await t?.drop();
});

describe('schedules across a fleet of workers killed -9', () => {
  it(`${TICKS} ticks of everySeconds: 1 make exactly one run each, none missed`, { timeout: 150_000 }, async () => {
    const quick = await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'tick done' }] });
    // Each run thinks for 2.5 s: three ticks of the slow schedule fall inside every run.
    const thinker = await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'slow done' }], thinkMs: 2500 });
    const caller = await operator();
    const created = await caller.schedules.create({
      teamId: fx.teamId,
      name: 'every-second',
      agentId: quick.agentId,
      everySeconds: 1,
      overlap: 'queue',
      goal: 'tick {{scheduledAt}}',
    });
    everySecond = { id: created.id, firstTick: created.nextFireAt! };
    slow = await caller.schedules.create({ teamId: fx.teamId, name: 'slow', agentId: thinker.agentId, everySeconds: 1, overlap: 'skip', goal: 'think' });

    const ticked = async () => (await t.db.scheduleTick.count({ where: { scheduleId: everySecond.id } })) >= TICKS;
    const deadline = Date.now() + 120_000;
    while (!(await ticked())) {
      if (Date.now() > deadline)
        throw new Error(`fewer than ${TICKS} ticks in 120 s: ${await t.db.scheduleTick.count({ where: { scheduleId: everySecond.id } })}`);
      // Just after a tick, when the workers are firing it.
      await sleep(jitter(1200, 3000));
      await sleep(1000 - (Date.now() % 1000) + jitter(0, 60));
      const live = [...workers].filter((w) => w.child.exitCode === null);
      const victim = live[Math.floor(Math.random() * live.length)];
      // Never the last ready worker: the fleet is never down.
      if (!victim || (ready.has(victim) && ready.size < 2)) continue;
      victim.child.kill('SIGKILL');
      await victim.exited;
      kills++;
      startWorker();
    }
    console.info(`schedules fleet test: ${JSON.stringify({ kills, workersSpawned: spawned })}`);
    expect(kills).toBeGreaterThanOrEqual(6);

    // One snapshot of both: the fleet goes on firing meanwhile.
    const [runs, ticks] = await t.db.$transaction([runsOf(everySecond.id), ticksOf(everySecond.id)], { isolationLevel: 'RepeatableRead' });
    const at = runs.map((r) => r.scheduledAt!.getTime());
    // From the first tick, one run per second, none missed, none twice.
    expect(at[0]).toBe(everySecond.firstTick.getTime());
    expect(at).toEqual(at.map((_, i) => everySecond.firstTick.getTime() + i * 1000));
    expect(runs.length).toBeGreaterThanOrEqual(TICKS);
    // Every recorded tick started the run of its time; a run whose tick is not recorded yet (its
    // worker was killed before committing the tick) can only be the newest one.
    const runAt = new Map(runs.map((r) => [r.scheduledAt!.getTime(), r.id]));
    expect(ticks.filter((tick) => tick.outcome !== 'started' || tick.runId !== runAt.get(tick.scheduledAt.getTime()))).toEqual([]);
    expect(runs.length - ticks.length).toBeLessThanOrEqual(1);
    expect(ticks.map((tick) => tick.scheduledAt.getTime())).toEqual(at.slice(0, ticks.length));
    expect(runs.every((r) => r.goal === `tick ${r.scheduledAt!.toISOString()}`)).toBe(true);
  });

  it('overlap: skip never has two runs of the schedule at once', async () => {
    const ticks = await ticksOf(slow.id);
    const runs = (await runsOf(slow.id)).filter((r) => r.scheduledAt !== null);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(ticks.filter((tick) => tick.outcome === 'skipped').length).toBeGreaterThanOrEqual(runs.length - 1);
    for (const tick of ticks.filter((x) => x.outcome === 'skipped')) expect(tick.reason).toMatch(/is still (queued|running|waiting).*\(overlap: skip\)$/);
    // Each run started only once the one before it had finished.
    for (let i = 1; i < runs.length; i++) {
      const previous = runs[i - 1]!;
      expect(previous.finishedAt, `run ${previous.id} finished before the next started`).not.toBeNull();
      expect(previous.finishedAt!.getTime()).toBeLessThanOrEqual(runs[i]!.createdAt.getTime());
    }
  });

  it('pausing stops further runs at once, while the fleet goes on firing other schedules', async () => {
    await (await operator()).schedules.pause({ teamId: fx.teamId, scheduleId: everySecond.id });
    const runs = (await runsOf(everySecond.id)).length;
    const ticks = (await ticksOf(everySecond.id)).length;
    // Three more ticks of the other schedule: every worker has had passes since the pause.
    const slowTicks = (await ticksOf(slow.id)).length;
    await waitFor(async () => (await ticksOf(slow.id)).length >= slowTicks + 3, 60_000, 'three more ticks of the slow schedule');
    expect((await runsOf(everySecond.id)).length).toBe(runs);
    expect((await ticksOf(everySecond.id)).length).toBe(ticks);
    expect(await t.db.schedule.findUniqueOrThrow({ where: { id: everySecond.id } })).toMatchObject({ enabled: false, nextFireAt: null });
  });
});
