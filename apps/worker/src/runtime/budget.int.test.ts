import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

const s = setUpRuntimeSuite('budget');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
// 1 µ$ per token in and out: a turn reserves prompt + 512 max output tokens of micro-dollars.
const priced = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000, maxOutputTokens: 512 };
const threeTurns = [{ calls: [{ tool: 'echo', args: { text: 'one' } }] }, { calls: [{ tool: 'echo', args: { text: 'two' } }] }, { finish: 'done' }];

async function ledgerOf(runId: string) {
  const l = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId } });
  return { limit: Number(l.limitCostMicros), spent: Number(l.spentCostMicros), reserved: Number(l.reservedCostMicros), calls: l.calls };
}

describe('run budget', () => {
  it('parks a run whose next call would exceed the budget, then resumes it when the budget is raised', async () => {
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script: threeTurns, ...priced });
    // Room for about one and a half turns.
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: 900, onExceed: 'wait' } });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    const parked = await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect(parked.waitReason).toBe('budget');
    expect(await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).toMatchObject({
      status: 'waiting',
      waitReason: 'budget',
      leaseOwner: null,
    });
    const before = await ledgerOf(run.runId);
    expect(before.reserved).toBe(0);
    expect(before.spent).toBeLessThanOrEqual(before.limit);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'budget.exceeded' } })).toBe(1);

    // A spurious wake-up changes nothing: the ledger still has no room.
    await s.client.enqueue({ ...run, reason: 'resume' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status).toBe('waiting');
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'budget.exceeded' } })).toBe(1);

    // What runs.raiseBudget does.
    const ledger = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId } });
    await s.t.db.budgetLedger.update({ where: { id: ledger.id }, data: { limitCostMicros: { increment: 10_000n } } });
    await s.t.db.budgetEntry.create({ data: { ledgerId: ledger.id, kind: 'raise', costMicros: 10_000n } });
    await s.client.enqueue({ ...run, reason: 'resume' });
    const done = await waitForRun(s.t.db, run.runId);
    expect(done.status).toBe('succeeded');
    const after = await ledgerOf(run.runId);
    expect(after).toMatchObject({ reserved: 0 });
    expect(after.spent).toBeLessThanOrEqual(after.limit);
    expect(Number(done.spentCostMicros)).toBe(after.spent);
    const types = (await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(types).toContain('run.resumed');
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('fails a run whose budget says fail, without ever going over the limit', async () => {
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script: threeTurns, ...priced });
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: 900, onExceed: 'fail' } });
    await s.client.enqueue({ ...run, reason: 'start' });
    const done = await waitForRun(s.t.db, run.runId);
    expect(done).toMatchObject({ status: 'failed', error: expect.stringMatching(/^budget exceeded: needs \d+ µ\$/) });
    const ledger = await ledgerOf(run.runId);
    expect(ledger.reserved).toBe(0);
    expect(ledger.spent).toBeLessThanOrEqual(ledger.limit);
  });

  it('refuses tool calls past the tool-call budget without running them', async () => {
    const script = [
      {
        calls: [
          { tool: 'record', args: {} },
          { tool: 'record', args: {} },
        ],
      },
      { calls: [{ tool: 'record', args: {} }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script });
    const run = await createTestRun(s.t.db, agent, { config, budget: { toolCalls: 2 } });
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    const executions = await s.worker.pool.query(`SELECT call_id FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId]);
    expect(executions.rowCount).toBe(2);
    const results = await s.t.db.event.findMany({ where: { runId: run.runId, type: 'tool.finished' }, orderBy: { seq: 'asc' } });
    expect(results.map((e) => (e.payload as { ok: boolean }).ok)).toEqual([true, true, false]);
    expect(results[2]!.payload).toMatchObject({ output: "not run: the run's budget of 2 tool calls is used up" });
    expect((await ledgerOf(run.runId)).calls).toBe(2);
  });

  it('fails a run that outlives its wall-time budget at its next model call', async () => {
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script: threeTurns, thinkMs: 700 });
    const run = await createTestRun(s.t.db, agent, { config, budget: { wallMs: 1000 } });
    await s.client.enqueue({ ...run, reason: 'start' });
    const done = await waitForRun(s.t.db, run.runId);
    expect(done).toMatchObject({ status: 'failed', error: "model call failed: the run's wall-time budget is spent" });
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'model.responded' } })).toBe(2);
  });
});
