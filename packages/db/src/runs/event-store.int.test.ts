import { createEvent, type Clock, type NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PgEventStore } from './event-store';
import { claimSessions } from './lease.repository';
import { createPgPool, type PgPool } from './pg-pool';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from './testing/run-fixtures';
import { FlushBatcher } from './flush-batcher';
import type { DurableAppend } from './write-buffer';
import { WriteUnit } from './write-unit';

let t: TestDatabase;
let pool: PgPool;
let agent: TestAgent;
const clock: Clock = { now: () => Date.UTC(2026, 0, 1, 12, 0, 0, 123) };
const TTL = 30_000;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 8 });
  agent = await createTestAgent(t.db, await createTestTeam(t.db));
});

const units: WriteUnit[] = [];
afterEach(async () => {
  // A unit fenced out mid-test still holds its transaction open, as a worker would until it discards it.
  await Promise.all(units.splice(0).map((u) => u.discard().catch(() => undefined)));
});

afterAll(async () => {
  await pool.end();
  await t.drop();
});

const messages = (n: number, from = 0): NewEvent[] =>
  Array.from({ length: n }, (_, i) => createEvent('message.added', { role: 'user', text: `message ${from + i}` }, clock));

async function holder(sessionId: string, runId: string, owner: string, onDurable?: (a: DurableAppend) => void, batcher?: FlushBatcher) {
  const [claim] = await claimSessions(pool, [sessionId], owner, TTL);
  if (!claim) throw new Error(`${owner} could not claim ${sessionId}`);
  const unit = new WriteUnit(pool, { lease: { runId, sessionId, owner, version: claim.version }, leaseTtlMs: TTL, onDurable, batcher });
  units.push(unit);
  const store = new PgEventStore({ pool, unit });
  return { unit, store, version: claim.version };
}

async function eventRows(runId: string) {
  const rows = await t.db.event.findMany({ where: { runId }, orderBy: { eventNo: 'asc' } });
  return rows.map((r) => ({ sessionId: r.sessionId, seq: r.seq, eventNo: Number(r.eventNo), type: r.type }));
}

async function expectConflict(promise: Promise<unknown>, message: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('CONFLICT');
  expect((error as AppError).message).toMatch(message);
}

describe('PgEventStore', () => {
  it('appends batches with contiguous seq and per-run event numbers, and loads them back exactly', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const published: DurableAppend[] = [];
    const { unit, store } = await holder(sessionId, runId, 'w1', (a) => published.push(a));
    const first = await store.append(messages(2), 0);
    const second = await store.append(messages(3, 2), 2);
    // Buffered until the flush: nothing is in the database yet.
    expect(await eventRows(runId)).toEqual([]);
    await unit.flush();
    expect([...first, ...second].map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.load()).toEqual([...first, ...second]);
    expect((await eventRows(runId)).map((r) => [r.seq, r.eventNo])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    const session = await t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(session.lastSeq).toBe(5);
    expect(run.lastEventNo).toBe(5n);
    // One notice per flush, for its last event.
    expect(published).toEqual([{ runId, sessionId, eventNo: 5, type: 'message.added', finished: null }]);
  });

  it('fences out a zombie: after another worker claims the expired lease, the old holder cannot append', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const zombie = await holder(sessionId, runId, 'zombie');
    await zombie.store.append(messages(1), 0);
    await zombie.unit.flush();
    // The zombie stalls past its lease; another worker takes the session over.
    await t.db.session.update({ where: { id: sessionId }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const successor = await holder(sessionId, runId, 'successor');
    expect(successor.version).toBe(zombie.version + 1);
    await zombie.store.append(messages(1, 100), 1);
    await expectConflict(zombie.unit.flush(), /lost the lease/);
    // A fenced-off unit refuses everything afterwards, still as a lost lease (CONFLICT): the job
    // that meets it first, whichever write that is, gives the session up instead of retrying it.
    await expect(zombie.store.append(messages(1, 300), 2)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^an earlier write of this session failed: lost the lease/),
    });
    await successor.store.append(messages(1, 200), 1);
    await successor.unit.flush();
    const rows = await t.db.event.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => (r.payload as { text: string }).text)).toEqual(['message 0', 'message 200']);
  });

  it('refuses an append whose afterSeq is stale', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const { store, unit } = await holder(sessionId, runId, 'w1');
    await store.append(messages(2), 0);
    // Within the buffer the gap is seen at once; against the database, at the flush.
    await expectConflict(store.append(messages(1), 1), /expected session .* to end at seq 1, but it ends at 2/);
    await unit.flush();
    const other = await holder(sessionId, runId, 'w1');
    await other.store.append(messages(1), 1);
    await expectConflict(other.unit.flush(), /expected session .* to end at seq 1, but it ends at 2/);
  });

  it('stores a batch entirely or not at all', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const { store, unit } = await holder(sessionId, runId, 'w1');
    await store.append(messages(1), 0);
    const batch = messages(3, 1);
    batch[1] = { ...batch[1]!, at: 'not a time' };
    await store.append(batch, 1);
    await expect(unit.flush()).rejects.toThrow(/invalid input syntax|time/);
    // Nothing of the buffer was stored, and the unit is broken: the caller must reload.
    await expect(store.append(messages(1), 1)).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/an earlier write of this session failed/),
    });
    // A refusal for its data would repeat on every retry: the session ends failed with the
    // reason, in place of the refused events.
    expect(await eventRows(runId)).toEqual([{ sessionId, seq: 1, eventNo: 1, type: 'run.finished' }]);
    const session = await t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({
      lastSeq: 1,
      status: 'failed',
      error: expect.stringMatching(/^the worker cannot continue this run: the database refused the session's events \(22007\)/),
    });
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).lastEventNo).toBe(1n);
  });

  it('keeps event numbers unique and increasing per run while two sessions append concurrently', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const child = await t.db.session.create({ data: { runId, status: 'idle', parentId: null } });
    const a = await holder(sessionId, runId, 'wa');
    const b = await holder(child.id, runId, 'wb');
    const appendMany = async (h: typeof a, n: number) => {
      let seq = 0;
      for (let i = 0; i < n; i++) {
        const size = 1 + (i % 3);
        await h.store.append(messages(size), seq);
        seq += size;
        if (i % 4 === 3) await h.unit.flush();
      }
      await h.unit.flush();
      return seq;
    };
    const [na, nb] = await Promise.all([appendMany(a, 40), appendMany(b, 40)]);
    const rows = await eventRows(runId);
    expect(rows).toHaveLength(na + nb);
    expect(rows.map((r) => r.eventNo)).toEqual(Array.from({ length: na + nb }, (_, i) => i + 1));
    for (const id of [sessionId, child.id]) {
      const own = rows.filter((r) => r.sessionId === id);
      expect(own.map((r) => r.seq)).toEqual(Array.from({ length: own.length }, (_, i) => i + 1));
    }
    expect(Number((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).lastEventNo)).toBe(na + nb);
  });

  it('lets exactly one of two concurrent appends at the same position win', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const h = await holder(sessionId, runId, 'w1');
    const secondUnit = new WriteUnit(pool, { lease: { runId, sessionId, owner: 'w1', version: h.version }, leaseTtlMs: TTL });
    units.push(secondUnit);
    const second = new PgEventStore({ pool, unit: secondUnit });
    // Whichever writes first wins; the other finds the log moved on.
    const write = async (store: PgEventStore, unit: WriteUnit, from: number) => {
      const stored = await store.append(messages(2, from), 0);
      await unit.flush();
      return stored;
    };
    const results = await Promise.allSettled([write(h.store, h.unit, 0), write(second, secondUnit, 10)]);
    const rejected = results.find((r) => r.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((await eventRows(runId)).map((r) => r.seq)).toEqual([1, 2]);
  });

  it('buffers appends until the flush, then runs the durable hook; during a side effect it writes at once', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const published: number[] = [];
    const { unit, store } = await holder(sessionId, runId, 'w1', (a) => published.push(a.eventNo));
    await store.append(messages(1), 0);
    await store.append(messages(1), 1);
    expect(await eventRows(runId)).toEqual([]);
    expect(published).toEqual([]);
    await unit.flush();
    expect((await eventRows(runId)).map((r) => r.seq)).toEqual([1, 2]);
    expect(published).toEqual([2]);
    // During a side effect, appends are written at once in the background (live model deltas).
    await unit.sideEffect(async () => {
      await store.append(messages(1), 2);
      await unit.idle();
      expect((await eventRows(runId)).map((r) => r.seq)).toEqual([1, 2, 3]);
      expect(published).toEqual([2, 3]);
    });
    // A repeatable effect starts at once; what was buffered before it is written in the background.
    await store.append(messages(1), 3);
    let publishedAtStart: number[] = [];
    await unit.sideEffect(
      async () => {
        publishedAtStart = [...published];
      },
      { repeatable: true },
    );
    expect(publishedAtStart).toEqual([2, 3]);
    await new Promise((resolve) => setImmediate(resolve));
    await unit.idle();
    expect((await eventRows(runId)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(published).toEqual([2, 3, 4]);
  });

  it('lets at most 4 repeatable effects start ahead of the last commit: the 5th waits for the flush', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const published: number[] = [];
    const { unit, store } = await holder(sessionId, runId, 'w1', (a) => published.push(a.eventNo));
    await store.append(messages(1), 0);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // What had been made durable when each effect started (read synchronously, before any await).
    const durableAtStart: number[] = [];
    const effect = (i: number) =>
      unit.sideEffect(
        async () => {
          durableAtStart[i] = published.length;
          await gate;
        },
        { repeatable: true },
      );
    const first = [0, 1, 2, 3, 4].map(effect);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Four started at once with the append still in memory; the fifth only after its commit.
    expect(durableAtStart.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(durableAtStart[4]).toBe(1);
    open();
    await Promise.all(first);
    await unit.idle();
    // The count starts again at that commit, where the fifth started: three more start at once
    // with the next append in memory, and the fourth after it is committed.
    await store.append(messages(1), 1);
    const again = [5, 6, 7, 8].map(effect);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(durableAtStart.slice(5, 9)).toEqual([1, 1, 1, 2]);
    await Promise.all(again);
    await unit.idle();
    expect((await eventRows(runId)).map((r) => r.seq)).toEqual([1, 2]);
  });

  it('projects run.started, budget charges, tool starts and run.finished onto the run and session', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const published: DurableAppend[] = [];
    const { unit, store } = await holder(sessionId, runId, 'w1', (a) => published.push(a));
    const config = (await t.db.session.findUniqueOrThrow({ where: { id: sessionId } })).config;
    await store.append([createEvent('run.started', { goal: 'g', config: config as never }, clock)], 0);
    await store.append([createEvent('budget.charged', { requestId: 'req-2', tokens: 120, costMicros: 7 }, clock)], 1);
    await store.append([createEvent('tool.started', { callId: 'call-3', name: 'x', args: {}, attempt: 1 }, clock)], 2);
    await store.append([createEvent('run.finished', { status: 'succeeded', result: 'all done' }, clock)], 3);
    await unit.flush();
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    const session = await t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(run).toMatchObject({ status: 'succeeded', result: 'all done', spentTokens: 120n, spentCostMicros: 7n, toolCalls: 1, lastEventNo: 4n });
    expect(run.startedAt).toBeInstanceOf(Date);
    expect(run.finishedAt).toBeInstanceOf(Date);
    expect(session).toMatchObject({ status: 'succeeded', result: 'all done', lastSeq: 4, costMicros: 7n });
    expect(published.map((p) => [p.eventNo, p.finished])).toEqual([[4, 'succeeded']]);
  });

  it('stores NUL characters (which jsonb refuses) as U+FFFD', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const { unit, store } = await holder(sessionId, runId, 'w1');
    await store.append([createEvent('message.added', { role: 'user', text: 'a\u0000b \\u0000 c' }, clock)], 0);
    await unit.flush();
    const [event] = await store.load();
    expect(event?.payload).toEqual({ role: 'user', text: 'a\uFFFDb \\u0000 c' });
  });

  it('stores unpaired surrogates as U+FFFD too, in payloads and in the run and session result columns, alone or in a group commit', async () => {
    const batcher = new FlushBatcher(pool, { parallel: 1 });
    for (const viaBatch of [false, true]) {
      const { runId, sessionId } = await createTestRun(t.db, agent);
      const { unit, store } = await holder(sessionId, runId, `w-${viaBatch}`, undefined, viaBatch ? batcher : undefined);
      const text = 'x\uD800 🙂 \\ud800 \uDC00\u0000';
      await store.append(
        [createEvent('message.added', { role: 'user', text }, clock), createEvent('run.finished', { status: 'failed', error: text }, clock)],
        0,
      );
      await unit.flush();
      const stored = 'x\uFFFD 🙂 \\ud800 \uFFFD\uFFFD';
      expect((await store.load())[0]?.payload).toEqual({ role: 'user', text: stored });
      expect(await t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'failed', error: stored });
      expect(await t.db.session.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: 'failed', error: stored });
    }
  });

  it('turns a write Postgres refuses for its data into an AppError that names the reason (a retry cannot heal it)', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const [claim] = await claimSessions(pool, [sessionId], 'w-range', TTL);
    // A lease longer than Postgres' int: the flush statement's cast refuses it (22003).
    const unit = new WriteUnit(pool, { lease: { runId, sessionId, owner: 'w-range', version: claim!.version }, leaseTtlMs: 2 ** 31 });
    units.push(unit);
    await new PgEventStore({ pool, unit }).append([createEvent('message.added', { role: 'user', text: 'hi' }, clock)], 0);
    const error = await unit.flush().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/^the database refused the session's events \(22003\): .*out of range/) });
  });

  it('group-commits many sessions in one statement; a fenced-off or broken session fails alone', async () => {
    const batcher = new FlushBatcher(pool, { parallel: 1 });
    const published: DurableAppend[] = [];
    const shared = await createTestRun(t.db, agent);
    const second = await t.db.session.create({ data: { runId: shared.runId, status: 'idle' } });
    const solo = await Promise.all(Array.from({ length: 6 }, () => createTestRun(t.db, agent)));
    const holders = [
      await holder(shared.sessionId, shared.runId, 'g', (a) => published.push(a), batcher),
      await holder(second.id, shared.runId, 'g', (a) => published.push(a), batcher),
      ...(await Promise.all(solo.map((r) => holder(r.sessionId, r.runId, 'g', (a) => published.push(a), batcher)))),
    ];
    // One holder lost its lease; another carries an event Postgres refuses.
    await t.db.session.update({ where: { id: solo[0]!.sessionId }, data: { leaseVersion: { increment: 1 } } });
    const bad = messages(2);
    bad[1] = { ...bad[1]!, at: 'not a time' };
    const flushes = holders.map(async (h, i) => {
      await h.store.append(i === 3 ? bad : messages(3), 0);
      return h.unit.flush();
    });
    const results = await Promise.allSettled(flushes);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    // Two sessions of one run: six events numbered 1..6 between them, each session's seq 1..3.
    const rows = await eventRows(shared.runId);
    expect(rows.map((r) => r.eventNo)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.filter((r) => r.sessionId === second.id).map((r) => r.seq)).toEqual([1, 2, 3]);
    for (const r of solo.slice(2)) expect((await eventRows(r.runId)).map((e) => e.eventNo)).toEqual([1, 2, 3]);
    expect(await eventRows(solo[0]!.runId)).toEqual([]);
    // The refused session's events are not stored; its failure is, alone.
    expect(await eventRows(solo[1]!.runId)).toEqual([{ sessionId: solo[1]!.sessionId, seq: 1, eventNo: 1, type: 'run.finished' }]);
    expect(published.map((p) => p.eventNo).sort()).toEqual([1, 3, 3, 3, 3, 3, 6].sort());
  });

  it('writes a batch of many sessions with one statement, numbering each run on its own', async () => {
    const batcher = new FlushBatcher(pool, { parallel: 1 });
    const runs = await Promise.all(Array.from({ length: 6 }, () => createTestRun(t.db, agent)));
    const holders = await Promise.all(runs.map((r) => holder(r.sessionId, r.runId, 'm', undefined, batcher)));
    const statements: string[] = [];
    const query = pool.query.bind(pool);
    const spy = ((config: { name?: string }, ...rest: unknown[]) => {
      if (config?.name?.startsWith('looplane_flush')) statements.push(config.name);
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof pool.query;
    pool.query = spy;
    try {
      await Promise.all(
        holders.map(async (h, i) => {
          await h.store.append(messages(2 + i), 0);
          await h.unit.flush();
        }),
      );
    } finally {
      pool.query = query;
    }
    expect(statements).toContain('looplane_flush_v4');
    expect(statements.length).toBeLessThan(holders.length);
    for (const [i, r] of runs.entries()) {
      expect((await eventRows(r.runId)).map((e) => [e.seq, e.eventNo])).toEqual(Array.from({ length: 2 + i }, (_, k) => [k + 1, k + 1]));
    }
  });
});
