import { claimSessions, PgEventStore, WriteUnit } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from '@looplane/db/testing';
import { createEvent, type NewEvent, type RunConfig } from '@looplane/engine';
import { describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { startTestWorker, uniquePrefix, waitFor, createTestClient } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

// Short leases and a fast reconciler, so recovery happens within a test's patience.
const s = setUpRuntimeSuite('recovery', { leaseTtlMs: 2000, reconcileIntervalMs: 300 });
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const clock = { now: () => Date.now() };

/** A worker that claimed the session, wrote `events`, and died (its lease runs out in `ttlMs`). */
async function deadWorker(run: { runId: string; sessionId: string }, events: (config: RunConfig) => NewEvent[], ttlMs = 1000) {
  const [claim] = await claimSessions(s.worker.pool, [run.sessionId], 'w_dead', ttlMs);
  await s.t.db.run.update({ where: { id: run.runId }, data: { status: 'running' } });
  const lease = { runId: run.runId, sessionId: run.sessionId, owner: 'w_dead', version: claim!.version };
  const unit = new WriteUnit(s.worker.pool, { lease, leaseTtlMs: ttlMs });
  const store = new PgEventStore({ pool: s.worker.pool, unit });
  const session = await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } });
  const batch = events(session.config as unknown as RunConfig);
  let seq = 0;
  for (const event of batch) await store.append([event], seq++);
  await unit.flush();
}

async function agentWith(script: Parameters<typeof createTestAgent>[2]): Promise<TestAgent> {
  return createTestAgent(s.t.db, await createTestTeam(s.t.db), script);
}

describe('recovery', () => {
  it('re-enqueues a session whose worker died mid model call once its lease expires; another worker finishes it', async () => {
    const agent = await agentWith({ script: [{ calls: [{ tool: 'echo', args: { text: 'x' } }] }, { finish: 'recovered' }] });
    const run = await createTestRun(s.t.db, agent, { config, goal: 'g' });
    await deadWorker(run, (c) => [
      createEvent('run.started', { goal: 'g', config: c }, clock),
      createEvent('budget.reserved', { requestId: 'req-2', purpose: 'model', tokens: 10, costMicros: 0 }, clock),
      createEvent('model.requested', { requestId: 'req-2', turn: 0, messages: 1, tools: [], promptTokens: 10, promptBytes: 10, maxOutputTokens: 512 }, clock),
    ]);
    const done = await waitForRun(s.t.db, run.runId, undefined, 15_000);
    expect(done).toMatchObject({ status: 'succeeded', result: 'recovered' });
    const events = await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } });
    // The interrupted call is made again under the same request id, without a second `model.requested`.
    expect(events.filter((e) => e.type === 'model.requested').map((e) => (e.payload as { requestId: string }).requestId)).toEqual([
      'req-2',
      expect.any(String),
    ]);
    expect(events.filter((e) => e.type === 'run.started')).toHaveLength(1);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
    expect((await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).leaseVersion).toBe(2);
  });

  it('never re-runs a non-idempotent tool the dead worker started: the model is told it was interrupted', async () => {
    const agent = await agentWith({ script: [{ calls: [{ tool: 'record', args: {} }] }, { finish: 'checked' }] });
    const run = await createTestRun(s.t.db, agent, { config, goal: 'g' });
    await deadWorker(run, (c) => [
      createEvent('run.started', { goal: 'g', config: c }, clock),
      createEvent('budget.reserved', { requestId: 'req-2', purpose: 'model', tokens: 10, costMicros: 0 }, clock),
      createEvent(
        'model.requested',
        { requestId: 'req-2', turn: 0, messages: 1, tools: ['record'], promptTokens: 10, promptBytes: 10, maxOutputTokens: 512 },
        clock,
      ),
      createEvent(
        'model.responded',
        { requestId: 'req-2', text: '', finishReason: 'tool_calls', usage: { inputTokens: 5, outputTokens: 5, estimated: false }, costMicros: 0 },
        clock,
      ),
      createEvent('tool.requested', { callId: 'call-5', requestId: 'req-2', name: 'record', args: {} }, clock),
      createEvent('budget.charged', { requestId: 'req-2', tokens: 10, costMicros: 0 }, clock),
      createEvent('budget.released', { requestId: 'req-2', tokens: 0, costMicros: 0 }, clock),
      createEvent('policy.decided', { callId: 'call-5', decision: 'allow' }, clock),
      createEvent('tool.started', { callId: 'call-5', name: 'record', args: {}, attempt: 1 }, clock),
    ]);
    // The dead worker's tool did run.
    await s.worker.pool.query(`INSERT INTO ${TOOL_CALLS_TABLE} (run_id, session_id, call_id, tool) VALUES ($1, $2, 'call-5', 'record')`, [
      run.runId,
      run.sessionId,
    ]);
    expect((await waitForRun(s.t.db, run.runId, undefined, 15_000)).status).toBe('succeeded');
    const interrupted = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'tool.interrupted' } });
    expect(interrupted.payload).toMatchObject({ callId: 'call-5' });
    const executions = await s.worker.pool.query(`SELECT call_id FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId]);
    expect(executions.rowCount).toBe(1);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('fences out a zombie: a worker whose lease was taken while its model call ran writes nothing more', async () => {
    const agent = await agentWith({ script: [{ calls: [{ tool: 'echo', args: { text: 'x' } }] }, { finish: 'done by the next holder' }], thinkMs: 1200 });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(() => s.t.db.event.findFirst({ where: { runId: run.runId, type: 'model.requested' } }).then((e) => e ?? undefined), 10_000, 'the model call');
    // Another party takes the lease over while the model thinks (as after a partition).
    const stolen = await s.t.db.session.update({
      where: { id: run.sessionId },
      data: { leaseOwner: 'w_thief', leaseVersion: { increment: 1 }, leaseExpiresAt: new Date(Date.now() + 1500) },
    });
    const before = await s.t.db.event.count({ where: { runId: run.runId } });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // The zombie's answer arrived and was refused: nothing was appended under the stolen lease.
    expect(await s.t.db.event.count({ where: { runId: run.runId } })).toBe(before);
    // The thief never comes back; its lease expires and the reconciler hands the run on.
    const done = await waitForRun(s.t.db, run.runId, undefined, 15_000);
    expect(done).toMatchObject({ status: 'succeeded', result: 'done by the next holder' });
    expect((await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).leaseVersion).toBeGreaterThan(stolen.leaseVersion);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('on shutdown brings loops to a step boundary, releases them and another worker continues at once', async () => {
    const prefix = uniquePrefix('handoff');
    const client = await createTestClient(prefix);
    const a = await startTestWorker({ databaseUrl: s.t.url, prefix, drainMs: 3000, workerId: 'w_leaving' });
    const script = [{ calls: [{ tool: 'echo', args: { text: '1' } }] }, { calls: [{ tool: 'echo', args: { text: '2' } }] }, { finish: 'done' }];
    const agent = await agentWith({ script, thinkMs: 700 });
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await createTestRun(s.t.db, agent, { config }));
    for (const run of runs) await client.enqueue({ ...run, reason: 'start' });
    await waitFor(async () => (await s.t.db.session.count({ where: { leaseOwner: 'w_leaving' } })) === 5, 10_000, 'worker A to hold all runs');
    const b = await startTestWorker({ databaseUrl: s.t.url, prefix, workerId: 'w_staying' });
    const stopStarted = performance.now();
    await a.stop();
    const stopMs = performance.now() - stopStarted;
    expect(stopMs).toBeLessThan(3000);
    for (const run of runs) expect((await waitForRun(s.t.db, run.runId, undefined, 15_000)).status).toBe('succeeded');
    for (const run of runs) expect(await logProblems(s.t.db, run.runId)).toEqual([]);
    const sessions = await s.t.db.session.findMany({ where: { id: { in: runs.map((r) => r.sessionId) } } });
    expect(sessions.every((x) => x.leaseVersion >= 2)).toBe(true);
    await b.stop();
    await client.close();
    console.info(`shutdown with 5 loops in flight: closed in ${stopMs.toFixed(0)} ms; all 5 finished on the other worker`);
  });
});
