import { createEvent } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerHasRoom, PgBudgetLedger } from './budget-ledger';
import { FlushBatcher } from './flush-batcher';
import { claimSessions } from './lease.repository';
import { createPgPool, type PgPool } from './pg-pool';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from './testing/run-fixtures';
import type { SessionLease } from './write-buffer';
import { WriteUnit } from './write-unit';

let t: TestDatabase;
let pool: PgPool;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 12 });
  agent = await createTestAgent(t.db, await createTestTeam(t.db));
});

const units: WriteUnit[] = [];
afterEach(async () => {
  await Promise.all(units.splice(0).map((u) => u.discard().catch(() => undefined)));
});

afterAll(async () => {
  await pool.end();
  await t.drop();
});

async function ledgerFor(runId: string, sessionId: string, owner = 'w', tokensOrCost = true, batcher?: FlushBatcher) {
  const [claim] = await claimSessions(pool, [sessionId], owner, 30_000);
  const lease: SessionLease = { runId, sessionId, owner, version: claim!.version };
  const unit = new WriteUnit(pool, { lease, leaseTtlMs: 30_000, batcher });
  units.push(unit);
  return { ledger: new PgBudgetLedger(unit, { tokensOrCost }), unit, lease };
}

const row = (runId: string) => t.db.budgetLedger.findFirstOrThrow({ where: { runId } });

describe('PgBudgetLedger', () => {
  it('reserves the worst case, refuses what would go over a limit, charges actual and releases the rest', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000, tokens: 10_000 } });
    const { ledger, unit } = await ledgerFor(runId, sessionId);
    expect(await ledger.reserve('req-1', { tokens: 500, costMicros: 600 })).toEqual({ granted: true });
    const refused = await ledger.reserve('req-2', { tokens: 100, costMicros: 500 });
    expect(refused).toMatchObject({ granted: false, reason: expect.stringMatching(/needs 500 µ\$; 0 spent and 600 reserved of 1000/) });
    await ledger.settle('req-1', { tokens: 500, costMicros: 600 }, { tokens: 300, costMicros: 250 });
    await unit.flush();
    expect(await row(runId)).toMatchObject({ reservedTokens: 0n, reservedCostMicros: 0n, spentTokens: 300n, spentCostMicros: 250n });
    const entries = await t.db.budgetEntry.findMany({ orderBy: { id: 'asc' }, where: { ledger: { runId } } });
    expect(entries.map((e) => [e.kind, Number(e.costMicros), e.reservation])).toEqual([
      ['reserve', 600, `${sessionId}:req-1`],
      ['charge', 250, `${sessionId}:req-1`],
      ['release', 350, `${sessionId}:req-1`],
    ]);
  });

  it('is exactly-once per key: a checked reservation repeated is granted without reserving twice', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000 } });
    const { ledger, unit } = await ledgerFor(runId, sessionId);
    await ledger.reserve('req-1', { tokens: 10, costMicros: 700 });
    expect(await ledger.reserve('req-1', { tokens: 10, costMicros: 700 })).toEqual({ granted: true });
    await unit.flush();
    expect(await row(runId)).toMatchObject({ reservedCostMicros: 700n });
    expect(await t.db.budgetEntry.count({ where: { ledger: { runId } } })).toBe(1);
  });

  it('loses a reservation together with the events of a flush that never happened (crash before the side effect)', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000 } });
    const { ledger, unit } = await ledgerFor(runId, sessionId);
    await ledger.reserve('req-1', { tokens: 10, costMicros: 700 });
    await unit.discard();
    expect(await row(runId)).toMatchObject({ reservedCostMicros: 0n });
    // The next holder repeats the reservation from the same log position: one reservation.
    await t.db.session.update({ where: { id: sessionId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    const next = await ledgerFor(runId, sessionId, 'w2');
    expect(await next.ledger.reserve('req-1', { tokens: 10, costMicros: 700 })).toEqual({ granted: true });
    await next.unit.flush();
    expect(await row(runId)).toMatchObject({ reservedCostMicros: 700n });
  });

  it('grants reservations on an unlimited ledger without a round trip and records the charges', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const { ledger, unit } = await ledgerFor(runId, sessionId, 'w', false);
    expect(await ledger.reserve('req-1', { tokens: 50, costMicros: 5 })).toEqual({ granted: true });
    await ledger.settle('req-1', { tokens: 50, costMicros: 5 }, { tokens: 20, costMicros: 2 });
    await unit.flush();
    expect(await row(runId)).toMatchObject({ reservedTokens: 0n, spentTokens: 20n, spentCostMicros: 2n });
    const entries = await t.db.budgetEntry.findMany({ where: { ledger: { runId } } });
    expect(entries.map((e) => [e.kind, Number(e.tokens), e.reservation])).toEqual([['charge', 20, `${sessionId}:req-1`]]);
    // A ledger that gained a limit meanwhile refuses a locally granted reservation: nothing is written.
    await ledger.reserve('req-2', { tokens: 50, costMicros: 5 });
    await unit.append([createEvent('budget.reserved', { requestId: 'req-2', purpose: 'model', tokens: 50, costMicros: 5 }, { now: () => Date.now() })], 0);
    await t.db.budgetLedger.updateMany({ where: { runId }, data: { limitTokens: 10 } });
    await expect(unit.flush()).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/gained a limit/) });
    expect(await t.db.event.count({ where: { runId } })).toBe(0);
  });

  it('grants a reservation ahead on room it knows of, with no round trip, and writes it with its events in one statement', async () => {
    const clock = { now: () => Date.now() };
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000 } });
    const { ledger, unit } = await ledgerFor(runId, sessionId);
    // The first reservation is checked (and tells the session the room); its flush commits it.
    await ledger.reserve('req-1', { tokens: 1, costMicros: 300 });
    await unit.append([createEvent('budget.reserved', { requestId: 'req-1', purpose: 'model', tokens: 1, costMicros: 300 }, clock)], 0);
    await unit.flush();
    await ledger.settle('req-1', { tokens: 1, costMicros: 300 }, { tokens: 1, costMicros: 100 });
    const sent: string[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((config: { name?: string } | string, ...rest: unknown[]) => {
      sent.push(typeof config === 'string' ? config : (config.name ?? 'unnamed'));
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof pool.query;
    try {
      expect(await ledger.reserve('req-2', { tokens: 1, costMicros: 800 })).toEqual({ granted: true });
      expect(sent).toEqual([]);
      expect(await row(runId)).toMatchObject({ reservedCostMicros: 300n });
      await unit.append([createEvent('budget.reserved', { requestId: 'req-2', purpose: 'model', tokens: 1, costMicros: 800 }, clock)], 1);
      await unit.flush();
      expect(sent).toEqual(['looplane_flush_one_v2']);
    } finally {
      pool.query = query;
    }
    expect(await row(runId)).toMatchObject({ reservedCostMicros: 800n, spentCostMicros: 100n });
    expect(await t.db.event.count({ where: { runId } })).toBe(2);
    // Beyond the room it knows of, the session asks the ledger, which refuses.
    expect(await ledger.reserve('req-3', { tokens: 1, costMicros: 200 })).toMatchObject({ granted: false });
  });

  it('a reservation ahead that finds no room (another session spent it) writes only what came before it; the next holder is refused the checked way', async () => {
    const clock = { now: () => Date.now() };
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000 } });
    const other = await t.db.session.create({ data: { runId, status: 'idle' } });
    const a = await ledgerFor(runId, sessionId, 'wa');
    const b = await ledgerFor(runId, other.id, 'wb');
    await a.ledger.reserve('req-1', { tokens: 1, costMicros: 100 });
    await a.unit.append([createEvent('budget.reserved', { requestId: 'req-1', purpose: 'model', tokens: 1, costMicros: 100 }, clock)], 0);
    await a.unit.flush();
    // The other session takes what session A believes is its room.
    expect(await b.ledger.reserve('req-1', { tokens: 1, costMicros: 800 })).toEqual({ granted: true });
    await b.unit.flush();
    await a.ledger.settle('req-1', { tokens: 1, costMicros: 100 }, { tokens: 1, costMicros: 100 });
    await a.unit.append([createEvent('message.added', { role: 'user', text: 'a tool result' }, clock)], 1);
    expect(await a.ledger.reserve('req-3', { tokens: 1, costMicros: 500 })).toEqual({ granted: true });
    await a.unit.append([createEvent('budget.reserved', { requestId: 'req-3', purpose: 'model', tokens: 1, costMicros: 500 }, clock)], 2);
    await expect(a.unit.flush()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/no room for a reservation granted before its check/),
    });
    // What came before the reservation (its settlement and the tool result) is durable; the reservation and its event are not.
    expect((await t.db.event.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } })).map((e) => e.type)).toEqual(['budget.reserved', 'message.added']);
    expect(await row(runId)).toMatchObject({ reservedCostMicros: 800n, spentCostMicros: 100n });
    // The session goes on from its log: the next holder reserves the checked way and is told why not.
    await t.db.session.update({ where: { id: sessionId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    const next = await ledgerFor(runId, sessionId, 'wa2');
    expect(await next.ledger.reserve('req-3', { tokens: 1, costMicros: 500 })).toMatchObject({
      granted: false,
      reason: expect.stringMatching(/needs 500 µ\$; 100 spent and 800 reserved of 1000/),
    });
  });

  it('never lets concurrent reservations of many sessions take a run over its limit', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 10_000 } });
    const others = await Promise.all(Array.from({ length: 7 }, () => t.db.session.create({ data: { runId, status: 'idle' } })));
    const holders = await Promise.all([sessionId, ...others.map((s) => s.id)].map((id, i) => ledgerFor(runId, id, `w${i}`)));
    const outcomes = await Promise.all(
      holders.flatMap(({ ledger, unit }) =>
        Array.from({ length: 5 }, async (_, k) => {
          const outcome = await ledger.reserve(`req-${k}`, { tokens: 1, costMicros: 700 });
          await unit.flush();
          return outcome;
        }),
      ),
    );
    const granted = outcomes.filter((o) => o.granted).length;
    expect(granted).toBe(14); // floor(10000 / 700)
    const ledgerRow = await row(runId);
    expect(Number(ledgerRow.reservedCostMicros)).toBe(granted * 700);
    expect(Number(ledgerRow.reservedCostMicros) + Number(ledgerRow.spentCostMicros)).toBeLessThanOrEqual(10_000);
  });

  it('reservations granted ahead by many sessions racing for one run never take it over its limit', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 10_000 } });
    const others = await Promise.all(Array.from({ length: 5 }, () => t.db.session.create({ data: { runId, status: 'idle' } })));
    // Half of them through a group commit, whose batch statement checks the run's summed change.
    const batcher = new FlushBatcher(pool, { parallel: 1 });
    const granted = await Promise.all(
      [sessionId, ...others.map((s) => s.id)].map(async (id, i) => {
        const via = i % 2 ? batcher : undefined;
        let holder = await ledgerFor(runId, id, `x${i}`, true, via);
        let count = 0;
        for (let k = 0; k < 6; k++) {
          // Each flush commits before the next reservation: from the second on, they are granted ahead.
          const outcome = await holder.ledger.reserve(`req-${k}`, { tokens: 1, costMicros: 700 });
          try {
            await holder.unit.flush();
            if (outcome.granted) count++;
          } catch (error) {
            expect(error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/no room/) });
            // The session goes on under a new holder, as the retried job would.
            await t.db.session.update({ where: { id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
            holder = await ledgerFor(runId, id, `x${i}-${k}`, true, via);
          }
        }
        return count;
      }),
    );
    const total = granted.reduce((a, b) => a + b, 0);
    const ledgerRow = await row(runId);
    expect(total).toBeLessThanOrEqual(14);
    expect(Number(ledgerRow.reservedCostMicros)).toBe(total * 700);
    expect(await t.db.budgetEntry.count({ where: { ledger: { runId }, kind: 'reserve' } })).toBe(total);
  });

  it('refuses every write of a holder that lost its lease', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { costMicros: 1000 } });
    const { ledger } = await ledgerFor(runId, sessionId);
    await t.db.session.update({ where: { id: sessionId }, data: { leaseOwner: 'other' } });
    await expect(ledger.reserve('req-1', { tokens: 1, costMicros: 1 })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await t.db.budgetEntry.count({ where: { ledger: { runId } } })).toBe(0);
  });

  it('counts tool calls against the tool-call limit once per key', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent, { budget: { toolCalls: 2 } });
    const { ledger, unit } = await ledgerFor(runId, sessionId);
    expect(await ledger.countToolCall('call-1')).toEqual({ granted: true, limit: 2 });
    expect(await ledger.countToolCall('call-1')).toEqual({ granted: true, limit: 2 });
    expect(await ledger.countToolCall('call-2')).toEqual({ granted: true, limit: 2 });
    expect(await ledger.countToolCall('call-3')).toEqual({ granted: false, limit: 2 });
    await unit.flush();
    expect((await row(runId)).calls).toBe(2);
  });

  it('says whether a raised ledger now has room for a refused reservation', async () => {
    const { runId } = await createTestRun(t.db, agent, { budget: { costMicros: 100 } });
    expect(await ledgerHasRoom(pool, runId, { tokens: 0, costMicros: 150 })).toBe(false);
    await t.db.budgetLedger.updateMany({ where: { runId }, data: { limitCostMicros: 200 } });
    expect(await ledgerHasRoom(pool, runId, { tokens: 0, costMicros: 150 })).toBe(true);
    const unlimited = await createTestRun(t.db, agent);
    expect(await ledgerHasRoom(pool, unlimited.runId, { tokens: 1e9, costMicros: 1e9 })).toBe(true);
  });
});
