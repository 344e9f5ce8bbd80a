import { createEvent, type Clock, type NewEvent } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendAuditBatchPg, type AuditTails } from '../audit/append-batch';
import { appendAudit, type AuditEntry } from '../audit/audit.repository';
import { verifyTeamAudit } from '../audit/audit-walk';
import { FlushBatcher } from './flush-batcher';
import { claimSessions } from './lease.repository';
import { createPgPool, type PgPool } from './pg-pool';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from './testing/run-fixtures';
import { WriteUnit } from './write-unit';

// A policy decision's audit row carried by the session's flush (audit-chain.functions.sql): it
// commits with the events it belongs to when the team's chain still ends where the worker chained
// it, and takes the locked path otherwise. Whichever way, every row is written once and the chain
// never forks.

let t: TestDatabase;
let pool: PgPool;
const clock: Clock = { now: () => Date.now() };
const TTL = 30_000;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 10 });
});

const units: WriteUnit[] = [];
afterEach(async () => {
  await Promise.all(units.splice(0).map((u) => u.discard().catch(() => undefined)));
});

afterAll(async () => {
  await pool.end();
  await t.drop();
});

/** The worker's side of the chain: its tails, and the locked path (counted). */
function chains() {
  const tails: AuditTails = new Map();
  const locked: AuditEntry[] = [];
  return {
    tails,
    locked,
    append: async (entry: AuditEntry) => {
      locked.push(entry);
      await appendAuditBatchPg(pool, [entry], tails);
    },
  };
}

type Chains = ReturnType<typeof chains>;

async function holder(agent: TestAgent, owner: string, audit: Chains, batcher?: FlushBatcher) {
  const { runId, sessionId } = await createTestRun(t.db, agent);
  const [claim] = await claimSessions(pool, [sessionId], owner, TTL);
  if (!claim) throw new Error(`${owner} could not claim ${sessionId}`);
  const unit = new WriteUnit(pool, { lease: { runId, sessionId, owner, version: claim.version }, leaseTtlMs: TTL, batcher, audit });
  units.push(unit);
  return { unit, runId, sessionId, seq: 0 };
}

type Holder = Awaited<ReturnType<typeof holder>>;

const decision = (teamId: string, runId: string, mark: string): AuditEntry => ({
  teamId,
  actor: { type: 'system', name: `run:${runId}` },
  action: 'policy.decided',
  targetType: 'run',
  targetId: runId,
  data: { mark },
});

/** Two events standing for a step's `policy.decided` and `tool.started` (their content does not matter here). */
const decided = (mark: string): NewEvent[] => [
  createEvent('message.added', { role: 'user', text: `decided ${mark}` }, clock),
  createEvent('message.added', { role: 'user', text: `started ${mark}` }, clock),
];

/** Buffers a decision's events with its row and flushes them; resolves once the row is in the chain. */
async function step(h: Holder, teamId: string, mark: string): Promise<void> {
  const row = h.unit.audit(decision(teamId, h.runId, mark));
  await h.unit.append(decided(mark), h.seq);
  h.seq += 2;
  await h.unit.flush();
  await row;
}

/** The team's chain, verified, as the marks of its rows. */
async function chainMarks(teamId: string): Promise<string[]> {
  expect(await verifyTeamAudit(t.db, teamId)).toMatchObject({ ok: true });
  const rows = await t.db.auditLog.findMany({ where: { teamId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => String((r.data as { mark?: unknown } | null)?.mark ?? r.action));
}

describe('audit rows carried by a flush (real Postgres)', () => {
  it('commits a decision with its events in one statement once the chain tail is known; the first takes the locked path', async () => {
    const teamId = await createTestTeam(t.db);
    const audit = chains();
    const h = await holder(await createTestAgent(t.db, teamId), 'w-carry', audit);
    await step(h, teamId, 'first');
    expect(audit.locked.map((e) => e.data?.mark)).toEqual(['first']);
    for (const mark of ['a', 'b', 'c']) await step(h, teamId, mark);
    // Only the first row (no tail known yet) went the locked way.
    expect(audit.locked).toHaveLength(1);
    expect(await chainMarks(teamId)).toEqual(['first', 'a', 'b', 'c']);
    const events = await t.db.event.count({ where: { sessionId: h.sessionId } });
    expect(events).toBe(8);
  });

  it('writes nothing of the chain when another writer moved the tail meanwhile, and appends the row through the locked path', async () => {
    const teamId = await createTestTeam(t.db);
    const audit = chains();
    const h = await holder(await createTestAgent(t.db, teamId), 'w-moved', audit);
    await step(h, teamId, 'first');
    // An API transaction appends to the team's chain: the worker's tail is stale.
    await t.db.$transaction((tx) => appendAudit(tx, { teamId, actor: { type: 'system', name: 'api' }, action: 'run.cancel_requested', data: { mark: 'api' } }));
    await step(h, teamId, 'after-api');
    expect(audit.locked.map((e) => e.data?.mark)).toEqual(['first', 'after-api']);
    // The session's events were written by the flush all the same.
    expect(await t.db.event.count({ where: { sessionId: h.sessionId } })).toBe(4);
    await step(h, teamId, 'carried-again');
    expect(audit.locked).toHaveLength(2);
    expect(await chainMarks(teamId)).toEqual(['first', 'api', 'after-api', 'carried-again']);
  });

  it('a flush fenced off (lease lost) writes no row; the decision is still appended, once', async () => {
    const teamId = await createTestTeam(t.db);
    const audit = chains();
    const h = await holder(await createTestAgent(t.db, teamId), 'w-fenced', audit);
    await step(h, teamId, 'first');
    await t.db.session.update({ where: { id: h.sessionId }, data: { leaseVersion: { increment: 1 } } });
    const row = h.unit.audit(decision(teamId, h.runId, 'fenced'));
    await h.unit.append(decided('fenced'), h.seq);
    const error = await h.unit.flush().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONFLICT');
    await row;
    expect(await chainMarks(teamId)).toEqual(['first', 'fenced']);
    expect(await t.db.event.count({ where: { sessionId: h.sessionId } })).toBe(2);
  });

  it('settleAudit writes a queued row at once (a call waiting for its row does not wait for the next step)', async () => {
    const teamId = await createTestTeam(t.db);
    const audit = chains();
    const h = await holder(await createTestAgent(t.db, teamId), 'w-settle', audit);
    await step(h, teamId, 'first');
    const row = h.unit.audit(decision(teamId, h.runId, 'settled'));
    await h.unit.append(decided('settled'), h.seq);
    await h.unit.settleAudit();
    await row;
    expect(audit.locked).toHaveLength(1);
    expect(await chainMarks(teamId)).toEqual(['first', 'settled']);
  });

  it('a group commit carries the rows of several sessions as one chain', async () => {
    const teamId = await createTestTeam(t.db);
    const agent = await createTestAgent(t.db, teamId);
    const audit = chains();
    const batcher = new FlushBatcher(pool, { parallel: 1 });
    const holders = await Promise.all(['g1', 'g2', 'g3'].map((owner) => holder(agent, owner, audit, batcher)));
    await step(holders[0]!, teamId, 'first');
    // The first flush occupies the batcher; the other two queue behind it and go together.
    await Promise.all(holders.map((h, i) => step(h, teamId, `round-${i}`)));
    expect(audit.locked).toHaveLength(1);
    expect(await chainMarks(teamId)).toEqual(['first', 'round-0', 'round-1', 'round-2']);
  });

  it('racing API transactions that lock a run then append, and the locked path, never deadlock, fork or lose a row', async () => {
    const teamId = await createTestTeam(t.db);
    const agent = await createTestAgent(t.db, teamId);
    const audit = chains();
    const batcher = new FlushBatcher(pool, { parallel: 2 });
    const holders = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((owner, i) => holder(agent, owner, audit, i % 2 ? batcher : undefined)));
    const expected: string[] = [];
    const sessions = holders.map(async (h, i) => {
      for (let round = 0; round < 12; round++) {
        const mark = `s${i}-${round}`;
        expected.push(mark);
        await step(h, teamId, mark);
      }
    });
    // As cancelRun does: the run's row first, the chain's lock last.
    const api = Array.from({ length: 16 }, async (_, i) => {
      const mark = `api-${i}`;
      expected.push(mark);
      const target = holders[i % holders.length]!;
      await t.db.$transaction(async (tx) => {
        await tx.run.update({ where: { id: target.runId }, data: { updatedAt: new Date() } });
        await appendAudit(tx, { teamId, actor: { type: 'system', name: 'api' }, action: 'run.cancel_requested', data: { mark } });
      });
    });
    const lockedPath = Array.from({ length: 8 }, async (_, i) => {
      const mark = `locked-${i}`;
      expected.push(mark);
      await audit.append(decision(teamId, 'none', mark));
    });
    await Promise.all([...sessions, ...api, ...lockedPath]);
    const marks = await chainMarks(teamId);
    expect([...marks].sort()).toEqual([...expected].sort());
    // Each session's rows stay in its own order along the chain.
    for (const i of holders.keys()) {
      const own = marks.filter((m) => m.startsWith(`s${i}-`));
      expect(own).toEqual(Array.from({ length: 12 }, (_, round) => `s${i}-${round}`));
    }
    // Most rows rode with their events: the locked path took only those whose tail had moved.
    expect(audit.locked.length).toBeLessThan(expected.length);
  });
});
