import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitAndClaim } from './admission.repository';
import { claimSessions, findReconcilable, releaseSession, renewLeases } from './lease.repository';
import { createPgPool, type PgPool } from './pg-pool';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from './testing/run-fixtures';

let t: TestDatabase;
let pool: PgPool;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 12 });
  agent = await createTestAgent(t.db, await createTestTeam(t.db));
});

afterAll(async () => {
  await pool.end();
  await t.drop();
});

const session = (id: string) => t.db.session.findUniqueOrThrow({ where: { id } });

describe('session leases', () => {
  it('lets exactly one of many concurrent claimers win, with the version bumped once', async () => {
    const { sessionId } = await createTestRun(t.db, agent);
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimSessions(pool, [sessionId], `w${i}`, 30_000)));
    const winners = claims.flat();
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ sessionId, version: 1, previousStatus: 'idle' });
    expect(await session(sessionId)).toMatchObject({ status: 'running', leaseVersion: 1 });
  });

  it('refuses a live lease of another owner, takes an expired one, and never claims a finished session', async () => {
    const { sessionId } = await createTestRun(t.db, agent);
    await claimSessions(pool, [sessionId], 'a', 30_000);
    expect(await claimSessions(pool, [sessionId], 'b', 30_000)).toEqual([]);
    await t.db.session.update({ where: { id: sessionId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    expect(await claimSessions(pool, [sessionId], 'b', 30_000)).toMatchObject([{ version: 2 }]);
    await t.db.session.update({ where: { id: sessionId }, data: { status: 'succeeded', leaseOwner: null } });
    expect(await claimSessions(pool, [sessionId], 'c', 30_000)).toEqual([]);
  });

  it('renews held leases in one statement and reports lost ones, cancel requests and inbox messages', async () => {
    const one = await createTestRun(t.db, agent);
    const two = await createTestRun(t.db, agent);
    const [c1] = await claimSessions(pool, [one.sessionId], 'keeper', 1000);
    const [c2] = await claimSessions(pool, [two.sessionId], 'keeper', 1000);
    const before = (await session(one.sessionId)).leaseExpiresAt!;
    // Another worker takes the second lease over; the first run gets a cancel request and a message.
    await t.db.session.update({ where: { id: two.sessionId }, data: { leaseOwner: 'thief', leaseVersion: { increment: 1 } } });
    await t.db.run.update({ where: { id: one.runId }, data: { cancelRequestedAt: new Date(), cancelledById: 'u1' } });
    await t.db.inboxMessage.create({ data: { runId: one.runId, sessionId: one.sessionId, text: 'hi' } });
    const reports = await renewLeases(
      pool,
      'keeper',
      [
        { sessionId: one.sessionId, version: c1!.version },
        { sessionId: two.sessionId, version: c2!.version },
      ],
      60_000,
    );
    expect(reports).toEqual(
      expect.arrayContaining([
        { sessionId: one.sessionId, held: true, cancelRequested: true, inboxPending: true },
        { sessionId: two.sessionId, held: false, cancelRequested: false, inboxPending: false },
      ]),
    );
    expect((await session(one.sessionId)).leaseExpiresAt!.getTime()).toBeGreaterThan(before.getTime() + 30_000);
    expect((await session(two.sessionId)).leaseOwner).toBe('thief');
  });

  it('releases only with the right version, parks the run, and reports what is pending', async () => {
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const [claim] = await claimSessions(pool, [sessionId], 'w', 30_000);
    const stale = await releaseSession(
      pool,
      { sessionId, owner: 'w', version: claim!.version - 1 },
      { status: 'waiting', waitReason: 'budget', runStatus: 'waiting' },
    );
    expect(stale.released).toBe(false);
    await t.db.inboxMessage.create({ data: { runId, sessionId, text: 'late' } });
    const released = await releaseSession(
      pool,
      { sessionId, owner: 'w', version: claim!.version },
      { status: 'waiting', waitReason: 'budget', runStatus: 'waiting' },
    );
    expect(released).toMatchObject({ released: true, status: 'waiting', inboxPending: true, cancelRequested: false, teamId: agent.teamId });
    expect(await session(sessionId)).toMatchObject({ status: 'waiting', waitReason: 'budget', leaseOwner: null, leaseExpiresAt: null });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'waiting', waitReason: 'budget' });
  });

  it('finds sessions to reconcile: expired or released running leases, long-idle sessions', async () => {
    const expired = await createTestRun(t.db, agent);
    const idle = await createTestRun(t.db, agent);
    const live = await createTestRun(t.db, agent);
    await claimSessions(pool, [expired.sessionId], 'dead', 30_000);
    await t.db.session.update({ where: { id: expired.sessionId }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
    await claimSessions(pool, [live.sessionId], 'alive', 30_000);
    await t.db.session.update({ where: { id: idle.sessionId }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const found = (await findReconcilable(pool, 30_000, 100)).map((c) => c.sessionId);
    expect(found).toEqual(expect.arrayContaining([expired.sessionId, idle.sessionId]));
    expect(found).not.toContain(live.sessionId);
  });
});

describe('admission', () => {
  it('admits up to the team limit and the agent limit across concurrent batches, deferring the rest', async () => {
    const teamId = await createTestTeam(t.db, { maxConcurrentRuns: 3 });
    const limited = await createTestAgent(t.db, teamId, { maxConcurrentRuns: 1 });
    const free = await createTestAgent(t.db, teamId);
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push({ ...(await createTestRun(t.db, limited)), agentId: limited.agentId });
    for (let i = 0; i < 4; i++) runs.push({ ...(await createTestRun(t.db, free)), agentId: free.agentId });
    // Two workers admit at once: the advisory lock serialises them.
    const [a, b] = await Promise.all([admitAndClaim(pool, teamId, runs.slice(0, 4), 'wa', 30_000), admitAndClaim(pool, teamId, runs.slice(4), 'wb', 30_000)]);
    const verdicts = [...a!, ...b!];
    expect(verdicts.filter((v) => v.kind === 'claimed')).toHaveLength(3);
    const admittedLimited = verdicts.slice(0, 3).filter((v) => v.kind === 'claimed');
    expect(admittedLimited.length).toBeLessThanOrEqual(1);
    expect(await t.db.run.count({ where: { teamId, status: 'running' } })).toBe(3);
    expect(verdicts.filter((v) => v.kind === 'deferred')).toHaveLength(4);
  });

  it("admits in candidate order, lets a run's second session ride on its slot, and says unavailable for what is gone or held", async () => {
    const teamId = await createTestTeam(t.db, { maxConcurrentRuns: 2 });
    const agent = await createTestAgent(t.db, teamId);
    const [first, second, third] = [await createTestRun(t.db, agent), await createTestRun(t.db, agent), await createTestRun(t.db, agent)];
    // A second session of the first run (a fork branch), and a session another worker holds.
    const branch = await t.db.session.create({ data: { runId: first.runId, parentId: first.sessionId, agentId: agent.agentId, status: 'idle', config: {} } });
    await t.db.session.update({
      where: { id: second.sessionId },
      data: { leaseOwner: 'other', leaseVersion: 1, leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    const candidate = (run: { runId: string; sessionId: string }, sessionId = run.sessionId) => ({ runId: run.runId, sessionId, agentId: agent.agentId });
    const verdicts = await admitAndClaim(
      pool,
      teamId,
      [
        candidate(first),
        candidate(first, branch.id),
        candidate(second),
        candidate(third),
        { runId: 'no-such-run', sessionId: 'no-such-session', agentId: null },
      ],
      'wa',
      30_000,
    );
    expect(verdicts.map((v) => v.kind)).toEqual(['claimed', 'claimed', 'unavailable', 'deferred', 'unavailable']);
    expect(verdicts[0]).toMatchObject({
      claim: { sessionId: first.sessionId, runId: first.runId, version: 1, previousStatus: 'idle', lastSeq: 0 },
      runStarted: true,
    });
    expect(verdicts[1]).toMatchObject({ claim: { sessionId: branch.id, parentId: first.sessionId }, runStarted: true });
    // The held session's run took the second slot (it is running elsewhere); the third waits.
    expect(await t.db.run.findMany({ where: { teamId }, select: { id: true, status: true }, orderBy: { id: 'asc' } })).toEqual(
      [
        { id: first.runId, status: 'running' },
        { id: second.runId, status: 'running' },
        { id: third.runId, status: 'queued' },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
  });
});
