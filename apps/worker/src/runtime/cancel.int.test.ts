import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { requestCancel, setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

// Lease renewals every second: the fallback path for a cancel whose live notice was lost.
const s = setUpRuntimeSuite('cancel', { leaseTtlMs: 3000 });
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };

async function startRun(options: Parameters<typeof createTestAgent>[2], budget?: { costMicros?: number; onExceed?: 'wait' | 'fail' }) {
  const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), options);
  const run = await createTestRun(s.t.db, agent, { config, ...(budget ? { budget } : {}) });
  return run;
}

const eventOf = (runId: string, type: string) => () => s.t.db.event.findFirst({ where: { runId, type } }).then((e) => e ?? undefined);

/** Cancels and returns how long until the run was recorded cancelled (ms). */
async function cancelAndTime(run: { runId: string; sessionId: string }): Promise<number> {
  const start = performance.now();
  await requestCancel(s.t.db, s.client, run, 'user-42');
  await waitFor(async () => (await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status === 'cancelled', 5000, 'cancelled');
  return performance.now() - start;
}

describe('cancellation', () => {
  it('stops a run in the middle of a tool call within a second, killing the call and recording who cancelled', async () => {
    const run = await startRun({ script: [{ calls: [{ tool: 'slow', args: { ms: 30_000 } }] }, { finish: 'never' }] });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(eventOf(run.runId, 'tool.started'), 10_000, 'the tool to start');
    const ms = await cancelAndTime(run);
    expect(ms).toBeLessThan(1000);
    const events = await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } });
    expect(events.at(-2)).toMatchObject({ type: 'tool.interrupted', payload: { reason: expect.stringContaining('cancelled by user user-42') } });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'cancelled', error: 'cancelled by user user-42' } });
    const executions = await s.worker.pool.query(`SELECT 1 FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId]);
    expect(executions.rowCount).toBe(0);
    const session = await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } });
    expect(session).toMatchObject({ status: 'cancelled', leaseOwner: null });
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
    console.info(`cancel during a tool call: recorded cancelled ${ms.toFixed(0)} ms after the request`);
  });

  it('stops a run while the model is thinking within a second and settles the reservation', async () => {
    const run = await startRun({ thinkMs: 30_000, script: [{ finish: 'never' }], inputMicrosPerMTok: 1_000_000 }, { costMicros: 1_000_000 });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(eventOf(run.runId, 'model.requested'), 10_000, 'the model call');
    const ms = await cancelAndTime(run);
    expect(ms).toBeLessThan(1000);
    const types = (await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(types.slice(-3)).toEqual(['budget.charged', 'budget.released', 'run.finished']);
    const ledger = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId } });
    expect(ledger).toMatchObject({ reservedTokens: 0n, reservedCostMicros: 0n });
    console.info(`cancel while the model thinks: recorded cancelled ${ms.toFixed(0)} ms after the request`);
  });

  it('cancels a queued run that never started', async () => {
    const run = await startRun({ script: [{ finish: 'never' }] });
    await cancelAndTime(run);
    const events = await s.t.db.event.findMany({ where: { runId: run.runId } });
    expect(events.map((e) => [e.type, (e.payload as { status: string }).status])).toEqual([['run.finished', 'cancelled']]);
    // A start job that arrives afterwards finds a finished session and does nothing.
    await s.client.enqueue({ ...run, reason: 'start' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await s.t.db.event.count({ where: { runId: run.runId } })).toBe(1);
  });

  it('cancels a run that waits on its budget, releasing its lease-free wait', async () => {
    const run = await startRun({ script: [{ finish: 'never' }], inputMicrosPerMTok: 1_000_000 }, { costMicros: 10, onExceed: 'wait' });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    expect(await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).toMatchObject({
      status: 'waiting',
      waitReason: 'budget',
      leaseOwner: null,
    });
    await cancelAndTime(run);
    const last = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId }, orderBy: { seq: 'desc' } });
    expect(last.payload).toMatchObject({ status: 'cancelled', error: 'cancelled by user user-42' });
  });

  it('still cancels a running run when the live notice and the job are lost (the lease renewal sees the request)', async () => {
    const run = await startRun({ thinkMs: 30_000, script: [{ finish: 'never' }] });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(eventOf(run.runId, 'model.requested'), 10_000, 'the model call');
    await s.t.db.run.update({ where: { id: run.runId }, data: { cancelRequestedAt: new Date(), cancelledById: 'user-quiet' } });
    const done = await waitForRun(s.t.db, run.runId, 'cancelled', 5000);
    expect(done.error).toBe('cancelled by user user-quiet');
  });
});
