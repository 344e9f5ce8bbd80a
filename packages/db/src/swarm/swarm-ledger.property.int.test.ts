import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../client';
import { claimSessions } from '../runs/lease.repository';
import { createPgPool, type PgPool } from '../runs/pg-pool';
import { createTestAgent, createTestTeam, type TestAgent } from '../runs/testing/run-fixtures';
import { WriteUnit } from '../runs/write-unit';
import { recordReturn } from './delegation-return';
import { spawnDelegation } from './delegation-spawn';
import { PgPathLedger } from './path-ledger';
import { createTestGraphRun, type TestGraphEdge } from './testing/graph-run-fixture';

/**
 * Property: random graphs (trees of 2-5 nodes with random edge budgets) driven by random scripts
 * of what sessions do (reserve the worst case of a model call, settle it later, call a tool,
 * delegate over an edge, finish), through the real Postgres ledgers and delegation code. After
 * every step no ledger is over any limit; at the end every reservation is released, every fan-out
 * slot given back, every ledger's spend is exactly what the sessions below it spent, and every
 * crossing has its evidence.
 */

/** Cases run this many at a time, each lane in a team of its own (audit appends lock per team). */
const LANES = 8;
const RUNS = 1000;

let t: TestDatabase;
let db: Db;
let pool: PgPool;
const agents: TestAgent[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  db = createDb(t.url, { poolSize: 12 });
  pool = createPgPool(t.url, { max: 12 });
  for (let i = 0; i < LANES; i++) agents.push(await createTestAgent(t.db, await createTestTeam(t.db)));
});

afterAll(async () => {
  await pool.end();
  await db.$disconnect();
  await t.drop();
});

const limit = (max: number) => fc.option(fc.integer({ min: 1, max }), { nil: undefined });
const budgetArb = fc.record({ tokens: limit(3000), costMicros: limit(3000), calls: limit(4), maxConcurrent: limit(2) });
const graphArb = fc.integer({ min: 2, max: 5 }).chain((n) =>
  fc.record({
    parents: fc.tuple(...Array.from({ length: n - 1 }, (_, i) => fc.integer({ min: 0, max: i }))),
    budgets: fc.array(budgetArb, { minLength: n - 1, maxLength: n - 1 }),
    run: fc.record({ tokens: limit(6000), costMicros: limit(6000), toolCalls: limit(8) }),
  }),
);
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant('reserve' as const), node: fc.nat(4), tokens: fc.integer({ min: 0, max: 1500 }), cost: fc.integer({ min: 0, max: 1500 }) }),
  fc.record({ kind: fc.constant('settle' as const), frac: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('tool' as const), node: fc.nat(4) }),
  fc.record({ kind: fc.constant('delegate' as const), edge: fc.nat(3), bytes: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('finish' as const), node: fc.integer({ min: 1, max: 4 }) }),
);

interface Live {
  id: string;
  node: number;
  edges: string[];
  unit: WriteUnit;
  ledger: PgPathLedger;
}

async function overLimit(runId: string): Promise<unknown[]> {
  const result = await pool.query(
    `SELECT scope, "scopeId", "reservedTokens", "spentTokens", "limitTokens", "reservedCostMicros", "spentCostMicros", "limitCostMicros", calls, "limitCalls", concurrent, "limitConcurrent"
     FROM "BudgetLedger" WHERE "runId" = $1 AND NOT (
       ("limitTokens" IS NULL OR "reservedTokens" + "spentTokens" <= "limitTokens") AND ("limitCostMicros" IS NULL OR "reservedCostMicros" + "spentCostMicros" <= "limitCostMicros")
       AND ("limitCalls" IS NULL OR calls <= "limitCalls") AND ("limitConcurrent" IS NULL OR concurrent <= "limitConcurrent")
       AND "reservedTokens" >= 0 AND "reservedCostMicros" >= 0 AND concurrent >= 0)`,
    [runId],
  );
  return result.rows;
}

async function openSession(runId: string, id: string, node: number, edges: string[]): Promise<Live> {
  const [claim] = await claimSessions(pool, [id], 'prop', 60_000);
  const unit = new WriteUnit(pool, { lease: { runId, sessionId: id, owner: 'prop', version: claim!.version }, leaseTtlMs: 60_000 });
  return { id, node, edges, unit, ledger: new PgPathLedger(unit) };
}

type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;

async function runCase(agent: TestAgent, graph: Of<typeof graphArb>, steps: Of<typeof stepArb>[]): Promise<void> {
  const keys = ['n0', ...graph.parents.map((_, i) => `n${i + 1}`)];
  const edges: TestGraphEdge[] = graph.parents.map((p, i) => ({ from: keys[p]!, to: keys[i + 1]!, budget: graph.budgets[i], data: { maxBytesIn: 32 } }));
  const run = await createTestGraphRun(db, { root: 'n0', nodes: keys.map((key) => ({ key, agent })), edges, budget: graph.run });
  const edgeIds = edges.map((e) => run.edges[`${e.from}->${e.to}`]!);
  const live: Live[] = [await openSession(run.runId, run.sessionId, 0, [])];
  const pending: { s: Live; key: string; amount: { tokens: number; costMicros: number } }[] = [];
  const expected = new Map<string, { tokens: number; cost: number }>([
    ['', { tokens: 0, cost: 0 }],
    ...edgeIds.map((id) => [id, { tokens: 0, cost: 0 }] as const),
  ]);
  let n = 0;
  const settle = async (p: (typeof pending)[number], frac: number) => {
    const spent = { tokens: Math.floor(p.amount.tokens * frac), costMicros: Math.floor(p.amount.costMicros * frac) };
    await p.s.ledger.settle(p.key, p.amount, spent);
    await p.s.unit.flush();
    for (const scope of ['', ...p.s.edges]) {
      const e = expected.get(scope)!;
      e.tokens += spent.tokens;
      e.cost += spent.costMicros;
    }
  };
  const finish = async (s: Live) => {
    for (const p of pending.filter((x) => x.s === s)) await settle(p, 1);
    pending.splice(0, pending.length, ...pending.filter((x) => x.s !== s));
    await db.session.update({ where: { id: s.id }, data: { status: 'succeeded', result: `done by ${s.id}`, leaseOwner: null } });
    await recordReturn(db, s.id);
    live.splice(live.indexOf(s), 1);
  };
  for (const step of steps) {
    const on = (node: number) => live.find((s) => s.node === node % keys.length);
    if (step.kind === 'reserve') {
      const s = on(step.node);
      if (!s) continue;
      const key = `req-${n++}`;
      const amount = { tokens: step.tokens, costMicros: step.cost };
      const outcome = await s.ledger.reserve(key, amount);
      await s.unit.flush();
      if (outcome.granted) pending.push({ s, key, amount });
      expect(await overLimit(run.runId)).toEqual([]);
    } else if (step.kind === 'settle') {
      const p = pending.shift();
      if (p) await settle(p, step.frac);
    } else if (step.kind === 'tool') {
      const s = on(step.node);
      if (!s) continue;
      await s.ledger.countToolCall(`tool-${n++}`);
      await s.unit.flush();
      expect(await overLimit(run.runId)).toEqual([]);
    } else if (step.kind === 'delegate') {
      const i = step.edge % edges.length;
      const parent = live.find((s) => keys[s.node] === edges[i]!.from);
      if (!parent) continue;
      const outcome = await spawnDelegation(db, {
        runId: run.runId,
        parentSessionId: parent.id,
        callId: `call-${n++}`,
        to: edges[i]!.to,
        goal: 'g'.repeat(step.bytes),
      });
      if (outcome.kind === 'spawned')
        live.push(await openSession(run.runId, outcome.childSessionId, keys.indexOf(edges[i]!.to), [...parent.edges, edgeIds[i]!]));
      expect(await overLimit(run.runId)).toEqual([]);
    } else {
      const s = live.find((x) => x.node === step.node % keys.length && x.node !== 0);
      if (s) await finish(s);
    }
  }
  // Wind down: everything settles, every child finishes (deepest first).
  while (pending.length) await settle(pending.shift()!, 0.5);
  for (const s of [...live].filter((x) => x.node !== 0).reverse()) await finish(s);
  await live[0]!.unit.discard();

  const ledgers = await db.budgetLedger.findMany({ where: { runId: run.runId } });
  for (const l of ledgers) {
    expect({ scope: l.scopeId, reserved: Number(l.reservedTokens) + Number(l.reservedCostMicros), concurrent: l.concurrent }).toEqual({
      scope: l.scopeId,
      reserved: 0,
      concurrent: 0,
    });
    const e = expected.get(l.scopeId)!;
    expect([Number(l.spentTokens), Number(l.spentCostMicros)]).toEqual([e.tokens, e.cost]);
  }
  expect(await overLimit(run.runId)).toEqual([]);
  const crossings = await db.swarmCrossing.findMany({ where: { runId: run.runId } });
  const ofRun = await db.auditLog.findMany({
    where: { teamId: agent.teamId, action: { startsWith: 'swarm.' }, data: { path: ['runId'], equals: run.runId } },
    select: { action: true },
  });
  const out = crossings.filter((c) => c.direction === 'out');
  expect(ofRun.filter((a) => a.action !== 'swarm.returned')).toHaveLength(out.length);
  expect(ofRun.filter((a) => a.action === 'swarm.returned')).toHaveLength(crossings.filter((c) => c.direction === 'back' && c.childSessionId).length);
  // Every child session has its outgoing crossing and its return.
  const children = await db.session.findMany({ where: { runId: run.runId, parentId: { not: null } }, select: { id: true } });
  for (const child of children)
    expect(
      crossings
        .filter((c) => c.childSessionId === child.id)
        .map((c) => c.direction)
        .sort(),
    ).toEqual(['back', 'out']);
}

describe('swarm ledgers (property)', () => {
  it('never overspends any ledger, always releases, and leaves evidence for every crossing (1,000 runs)', async () => {
    // Each property run drives LANES independent cases at once; RUNS cases in all (shrinking still works per batch).
    const batch = fc.array(fc.tuple(graphArb, fc.array(stepArb, { minLength: 4, maxLength: 14 })), { minLength: LANES, maxLength: LANES });
    await fc.assert(
      fc.asyncProperty(batch, async (cases) => {
        await Promise.all(cases.map(([graph, steps], lane) => runCase(agents[lane]!, graph, steps)));
      }),
      { numRuns: RUNS / LANES },
    );
  }, 300_000);
});
