import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { createTestClient, startTestWorker, uniquePrefix, waitFor, type TestClient, type TestWorker } from '../testing/test-runtime';
import { createToolCallsTable, testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

/** A faux run end to end: API-style rows → BullMQ → the worker runtime in-process → Postgres + live bus. */

let t: TestDatabase;
let worker: TestWorker;
let client: TestClient;
const prefix = uniquePrefix('runtime');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };

beforeAll(async () => {
  t = await createTestDatabase();
  const pool = createPgPool(t.url, { max: 2 });
  await createToolCallsTable(pool);
  await pool.end();
  worker = await startTestWorker({ databaseUrl: t.url, prefix });
  client = await createTestClient(prefix);
});

afterAll(async () => {
  await worker?.stop();
  await client?.close();
  await t?.drop();
});

const finished = (runId: string) => async () => {
  const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  return ['succeeded', 'failed', 'cancelled'].includes(run.status) ? run : undefined;
};

describe('worker runtime', () => {
  it('runs a faux agent through BullMQ: events in Postgres, statuses projected, live notices published', async () => {
    const teamId = await createTestTeam(t.db);
    const agent = await createTestAgent(t.db, teamId, {
      script: [
        { say: 'Recording first.', calls: [{ tool: 'record', args: {} }] },
        { calls: [{ tool: 'echo', args: { text: 'hello' } }] },
        { finish: 'All done.' },
      ],
      inputMicrosPerMTok: 1_000_000,
      outputMicrosPerMTok: 2_000_000,
    });
    const { runId, sessionId } = await createTestRun(t.db, agent, { goal: 'Record, then echo.', config });
    await client.follow(teamId, [runId]);
    await client.enqueue({ runId, sessionId, reason: 'start' });

    const run = await waitFor(finished(runId), 20_000, 'the run to finish');
    expect(run).toMatchObject({ status: 'succeeded', result: 'All done.', toolCalls: 2, error: null });
    expect(run.startedAt).toBeInstanceOf(Date);
    expect(run.finishedAt).toBeInstanceOf(Date);
    expect(Number(run.spentTokens)).toBeGreaterThan(0);
    expect(Number(run.spentCostMicros)).toBeGreaterThan(0);

    const events = await t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.started');
    expect(events[0]!.payload).toMatchObject({ goal: 'Record, then echo.', config: { toolLoading: 'eager' } });
    expect(types.at(-1)).toBe('run.finished');
    expect(types.filter((x) => x === 'model.responded')).toHaveLength(3);
    expect(types.filter((x) => x === 'tool.finished')).toHaveLength(2);
    expect(await logProblems(t.db, runId)).toEqual([]);

    const session = await t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({ status: 'succeeded', result: 'All done.', leaseOwner: null, lastSeq: events.length });
    const ledger = await t.db.budgetLedger.findFirstOrThrow({ where: { runId } });
    expect(ledger).toMatchObject({ reservedTokens: 0n, reservedCostMicros: 0n, spentCostMicros: run.spentCostMicros, spentTokens: run.spentTokens });
    const executions = await worker.pool.query(`SELECT call_id FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [runId]);
    expect(executions.rowCount).toBe(1);

    // Live: one notice per commit, in order, ending with the last event; team activity running → succeeded.
    await waitFor(() => client.runEvents.some((m) => m.runId === runId && m.eventNo === events.length), 5000, 'the last run event notice');
    const notices = client.runEvents.filter((m) => m.runId === runId).map((m) => m.eventNo);
    expect(notices).toEqual([...notices].sort((a, b) => a - b));
    await waitFor(() => client.activity.some((a) => a.kind === 'run.status' && a.runId === runId && a.status === 'succeeded'), 5000, 'succeeded');
    const statuses = client.activity.flatMap((a) => (a.kind === 'run.status' && a.runId === runId ? [a.status] : []));
    expect(statuses).toEqual(['running', 'succeeded']);
  });

  it('runs many loops at once, each to completion with a sound log', async () => {
    const teamId = await createTestTeam(t.db, { maxConcurrentRuns: 100 });
    const agent = await createTestAgent(t.db, teamId, { script: [{ calls: [{ tool: 'echo', args: { text: 'a' } }] }, { finish: 'ok' }], thinkMs: 50 });
    const runs = [];
    for (let i = 0; i < 40; i++) runs.push(await createTestRun(t.db, agent, { config }));
    await Promise.all(runs.map((r) => client.enqueue({ ...r, reason: 'start' })));
    for (const r of runs) await waitFor(finished(r.runId), 30_000, `run ${r.runId}`);
    const statuses = await t.db.run.groupBy({ by: ['status'], where: { teamId }, _count: true });
    expect(statuses).toEqual([{ status: 'succeeded', _count: 40 }]);
    for (const r of runs) expect(await logProblems(t.db, r.runId)).toEqual([]);
  });

  it('ignores duplicate and stale jobs: a finished run is not touched again', async () => {
    const agent = await createTestAgent(t.db, await createTestTeam(t.db), { script: [{ finish: 'once' }] });
    const run = await createTestRun(t.db, agent, { config });
    await Promise.all([1, 2, 3].map(() => client.enqueue({ ...run, reason: 'start' })));
    await waitFor(finished(run.runId), 10_000, 'the run');
    await client.enqueue({ ...run, reason: 'reconcile' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = await t.db.event.findMany({ where: { runId: run.runId } });
    expect(events.filter((e) => e.type === 'run.started')).toHaveLength(1);
    expect(await logProblems(t.db, run.runId)).toEqual([]);
  });

  it('fails a run visibly when its config cannot start or its endpoint is gone', async () => {
    const agent = await createTestAgent(t.db, await createTestTeam(t.db), { script: [{ finish: 'never' }] });
    const bad = await createTestRun(t.db, agent, { config });
    await t.db.session.update({ where: { id: bad.sessionId }, data: { config: { model: { model: '' } } } });
    const gone = await createTestRun(t.db, agent, { config });
    await t.db.modelEndpoint.update({ where: { id: agent.endpointId }, data: { deletedAt: new Date() } });
    await client.enqueue({ ...bad, reason: 'start' });
    await client.enqueue({ ...gone, reason: 'start' });
    expect(await waitFor(finished(bad.runId))).toMatchObject({ status: 'failed', error: expect.stringMatching(/invalid run.started event: config/) });
    expect(await waitFor(finished(gone.runId))).toMatchObject({ status: 'failed', error: expect.stringMatching(/endpoint .* was deleted/) });
  });

  it('fails a run visibly, after the job retries, when its log cannot be read', { timeout: 30_000 }, async () => {
    const agent = await createTestAgent(t.db, await createTestTeam(t.db), { script: [{ finish: 'never' }] });
    const run = await createTestRun(t.db, agent, { config });
    // A row no engine version can decode (written by something else entirely).
    await t.db.event.create({ data: { runId: run.runId, sessionId: run.sessionId, seq: 1, eventNo: 1n, type: 'alien.event', payload: {} } });
    await t.db.session.update({ where: { id: run.sessionId }, data: { lastSeq: 1 } });
    await t.db.run.update({ where: { id: run.runId }, data: { lastEventNo: 1n } });
    await client.enqueue({ ...run, reason: 'start' });
    const failed = await waitFor(finished(run.runId), 25_000, 'the run to fail');
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^the worker cannot continue this run: event 1 has unknown type alien.event/),
    });
    expect(await t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).toMatchObject({ status: 'failed', leaseOwner: null });
  });
});
