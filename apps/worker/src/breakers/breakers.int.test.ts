import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestGraphRun, createTestRun } from '@looplane/db/testing';
import type { Prisma } from '@looplane/db';
import type { ScriptTurn } from '@looplane/engine';
import { describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

/**
 * Breakers against the real worker (Postgres, Redis, BullMQ, the runtime), a scripted faux model
 * and the approvals API: each breaker pauses the session into the inbox with its reason before
 * the call that tripped it runs; approving resumes it with the window restarted (a second trip
 * needs as much again); rejecting cancels the run.
 */

const s = setUpRuntimeSuite('breakers');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const OFF = { repeatCall: { enabled: false }, noProgress: { enabled: false }, spendRate: { enabled: false }, fanOut: { enabled: false } };
// 1 µ$ per token in and out.
const priced = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000, maxOutputTokens: 64 };

async function team(breakers: Record<string, unknown>): Promise<TeamFixture> {
  const fx = await createTeamFixture(s.t.db);
  const document = { version: 1, default: 'allow', breakers: { ...OFF, ...breakers } } as Prisma.InputJsonValue;
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'default', activeVersion: 1, versions: { create: { version: 1, document } } } });
  return fx;
}

const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });

/** Waits for the run to park on a pending breaker approval; returns it as the inbox (approvals.list) shows it to a viewer. */
async function pausedOn(fx: TeamFixture, runId: string, trips: number) {
  await waitFor(
    async () => ((await s.t.db.approval.count({ where: { runId, kind: 'breaker' } })) === trips ? true : undefined),
    20_000,
    `breaker approval #${trips}`,
  );
  await waitForRun(s.t.db, runId, 'waiting');
  const viewer = await callerAs(api(), { userId: fx.members.viewer.id });
  const inbox = await viewer.approvals.list({ teamId: fx.teamId, status: 'pending', runId });
  expect(inbox.items).toHaveLength(1);
  return inbox.items[0]!;
}

async function decide(fx: TeamFixture, approvalId: string, decision: 'approve' | 'reject') {
  const approver = await callerAs(api(), { userId: fx.members.approver.id });
  return approver.approvals.decide({ teamId: fx.teamId, approvalId, decision, comment: decision === 'reject' ? 'looping' : 'carry on' });
}

/** Micro-dollars each session of the run spent on model calls (or all of them under one key). */
async function spendBySession(runId: string, all?: 'total'): Promise<Map<string, number>> {
  const events = await s.t.db.event.findMany({ where: { runId, type: 'model.responded' }, select: { sessionId: true, payload: true } });
  const spend = new Map<string, number>();
  for (const e of events) {
    const key = all ?? e.sessionId;
    spend.set(key, (spend.get(key) ?? 0) + Number((e.payload as { costMicros?: number }).costMicros ?? 0));
  }
  return spend;
}

/**
 * What `script` costs when nothing stops it: run once with every breaker off and no budget. A
 * budget below it would stop the script; a breaker that trips first, with no budget.exceeded,
 * tripped before the budget did.
 */
async function unstoppedSpend(script: ScriptTurn[]): Promise<number> {
  const fx = await team({});
  const agent = await createTestAgent(s.t.db, fx.teamId, { script, ...priced });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.client.enqueue({ ...run, reason: 'start' });
  expect((await waitForRun(s.t.db, run.runId, undefined, 30_000)).status).toBe('succeeded');
  return Number((await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId } })).spentCostMicros);
}

const executions = async (runId: string) => (await s.worker.pool.query(`SELECT 1 FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [runId])).rowCount ?? 0;

/** Trips, audit rows and events agree, and the run ended cancelled by the rejection. */
async function expectTripsAndCancel(fx: TeamFixture, runId: string, breaker: string, trips: number) {
  const done = await waitForRun(s.t.db, runId, undefined, 20_000);
  expect(done.status).toBe('cancelled');
  expect(await s.t.db.event.count({ where: { runId, type: 'breaker.tripped' } })).toBe(trips);
  const audit = await s.t.db.auditLog.findMany({ where: { teamId: fx.teamId, action: 'breaker.tripped', targetId: runId } });
  expect(audit).toHaveLength(trips);
  expect(audit.every((a) => (a.data as { breaker: string }).breaker === breaker)).toBe(true);
  expect(await s.t.db.auditLog.count({ where: { teamId: fx.teamId, action: 'run.cancel_requested', targetId: runId } })).toBe(1);
  expect(await logProblems(s.t.db, runId)).toEqual([]);
}

describe('breakers on the real worker', () => {
  it('repeatCall: the 3rd identical call pauses the run before it runs, while the budget still has room; approve resumes, a second trip needs 3 more; reject cancels', async () => {
    const fx = await team({ repeatCall: { times: 3, windowTurns: 10 } });
    const script: ScriptTurn[] = [...Array.from({ length: 10 }, () => ({ calls: [{ tool: 'record', args: { file: 'same.txt' } }] })), { finish: 'done' }];
    const agent = await createTestAgent(s.t.db, fx.teamId, { script, ...priced });
    // A budget the whole script would run out of.
    const limit = Math.floor((await unstoppedSpend(script)) / 2);
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: limit, onExceed: 'wait' } });
    await s.client.enqueue({ ...run, reason: 'start' });

    const first = await pausedOn(fx, run.runId, 1);
    expect(first).toMatchObject({
      kind: 'breaker',
      tool: 'record',
      breaker: { name: 'repeatCall', scope: 'session', observed: 3, limit: 3, window: '10 turns' },
    });
    expect(first.reason).toMatch(/same record call .* 3 times within 10 turns/);
    expect(await executions(run.runId)).toBe(2);
    // The breaker tripped before the budget did: the ledger has room left, nothing was refused.
    const ledger = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId } });
    expect(Number(ledger.limitCostMicros)).toBe(limit);
    expect(Number(ledger.spentCostMicros)).toBeLessThan(limit);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'budget.exceeded' } })).toBe(0);

    await decide(fx, first.id, 'approve');
    const second = await pausedOn(fx, run.runId, 2);
    // Resumed with the window restarted: the approved call ran, then it took 3 more to trip again.
    expect(await executions(run.runId)).toBe(5);
    expect(second.breaker).toMatchObject({ name: 'repeatCall', observed: 3 });

    await decide(fx, second.id, 'reject');
    await expectTripsAndCancel(fx, run.runId, 'repeatCall', 2);
    expect(await executions(run.runId)).toBe(5);
  });

  it('noProgress: 3 turns in a row without a workspace change or a new tool pause the run; approve resumes, reject cancels', async () => {
    const fx = await team({ noProgress: { turns: 3 } });
    const script: ScriptTurn[] = [...Array.from({ length: 12 }, (_, i) => ({ calls: [{ tool: 'echo', args: { text: `look ${i}` } }] })), { finish: 'done' }];
    const agent = await createTestAgent(s.t.db, fx.teamId, { script });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });

    const first = await pausedOn(fx, run.runId, 1);
    expect(first).toMatchObject({ kind: 'breaker', tool: 'echo', args: { text: 'look 4' }, breaker: { name: 'noProgress', observed: 3, limit: 3 } });
    expect(first.reason).toMatch(/3 turns in a row without a workspace change or a new tool/);
    await decide(fx, first.id, 'approve');
    // The tripping turn does not count: three more idle turns, then the call of the 9th turn.
    const second = await pausedOn(fx, run.runId, 2);
    expect(second.args).toEqual({ text: 'look 8' });
    await decide(fx, second.id, 'reject');
    await expectTripsAndCancel(fx, run.runId, 'noProgress', 2);
  });

  it('spendRate: more micro-dollars in a minute than the session may spend pauses it before the budget runs out; approve resets the window, reject cancels', async () => {
    const fx = await team({ spendRate: { perSession: { costMicros: 300 } } });
    const script: ScriptTurn[] = [...Array.from({ length: 30 }, (_, i) => ({ calls: [{ tool: 'echo', args: { text: `step ${i}` } }] })), { finish: 'done' }];
    const agent = await createTestAgent(s.t.db, fx.teamId, { script, ...priced });
    // A budget the whole script would run out of.
    const limit = Math.floor((await unstoppedSpend(script)) / 2);
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: limit, onExceed: 'wait' } });
    await s.client.enqueue({ ...run, reason: 'start' });

    const first = await pausedOn(fx, run.runId, 1);
    expect(first.breaker).toMatchObject({ name: 'spendRate', scope: 'session', limit: 300, unit: 'micro-dollars per minute' });
    expect(first.breaker!.observed).toBeGreaterThan(300);
    expect(first.reason).toMatch(/this session spent \d+ micro-dollars in the last minute, more than its limit of 300 per minute/);
    const turnsAtFirst = await s.t.db.event.count({ where: { runId: run.runId, type: 'model.responded' } });
    const ledger = await s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId } });
    expect(Number(ledger.limitCostMicros)).toBe(limit);
    expect(Number(ledger.spentCostMicros)).toBeLessThan(limit);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'budget.exceeded' } })).toBe(0);

    await decide(fx, first.id, 'approve');
    const second = await pausedOn(fx, run.runId, 2);
    // The spend before the trip no longer counts: it took new turns to go over again.
    const turnsAtSecond = await s.t.db.event.count({ where: { runId: run.runId, type: 'model.responded' } });
    expect(turnsAtSecond).toBeGreaterThan(turnsAtFirst);
    expect(second.breaker!.observed).toBeGreaterThan(300);
    await decide(fx, second.id, 'reject');
    await expectTripsAndCancel(fx, run.runId, 'spendRate', 2);
  });

  it('spendRate per graph run: the sessions together spend more in a minute than the run may, though none does alone; the call that tips it pauses the run; approve resumes, reject cancels', async () => {
    const limit = 2_000;
    const fx = await team({ spendRate: { perSession: { costMicros: 1_000_000 }, perGraphRun: { costMicros: limit } } });
    const delegate = (n: number) => ({ tool: 'delegate', args: { to: 'worker', goal: `part ${n}` } });
    // One delegation a turn: the workers run one after another, so one of them at a time adds to the run's spend.
    const planner = await createTestAgent(s.t.db, fx.teamId, {
      script: [...Array.from({ length: 12 }, (_, i) => ({ calls: [delegate(i + 1)] })), { finish: 'all parts done' }],
      ...priced,
    });
    const worker = await createTestAgent(s.t.db, fx.teamId, {
      script: [{ calls: [{ tool: 'echo', args: { text: 'a' } }] }, { calls: [{ tool: 'echo', args: { text: 'b' } }] }, { finish: 'part done' }],
      ...priced,
    });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'worker', agent: worker, config },
      ],
      edges: [{ from: 'planner', to: 'worker', budget: { calls: 50 } }],
      budget: { costMicros: 1_000_000, onExceed: 'wait' },
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });

    const first = await pausedOn(fx, run.runId, 1);
    expect(first.breaker).toMatchObject({ name: 'spendRate', scope: 'graphRun', limit, unit: 'micro-dollars per minute' });
    expect(first.reason).toMatch(new RegExp(`the graph run spent \\d+ micro-dollars in the last minute, more than its limit of ${limit} per minute`));
    // The run's sessions together went over; the session that tripped did not on its own.
    const spend = await spendBySession(run.runId);
    const total = [...spend.values()].reduce((a, b) => a + b, 0);
    expect(first.breaker!.observed).toBeGreaterThan(limit);
    expect(first.breaker!.observed).toBeLessThanOrEqual(total);
    expect(spend.size).toBeGreaterThan(2);
    expect(Math.max(...spend.values())).toBeLessThanOrEqual(limit);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'budget.exceeded' } })).toBe(0);

    await decide(fx, first.id, 'approve');
    // The tripped session's window restarted: the run's spend before the trip no longer counts for it.
    const second = await pausedOn(fx, run.runId, 2);
    expect(second.breaker).toMatchObject({ name: 'spendRate', scope: 'graphRun' });
    expect(second.breaker!.observed).toBeGreaterThan(limit);
    expect((await spendBySession(run.runId, 'total')).get('total')!).toBeGreaterThan(total + limit);
    await decide(fx, second.id, 'reject');
    await expectTripsAndCancel(fx, run.runId, 'spendRate', 2);
  });

  it('fanOut: a delegation that would put 3 of a graph run in flight with a limit of 2 pauses the run; approve resumes, reject cancels the whole run', async () => {
    const fx = await team({ fanOut: { maxInFlight: 2 } });
    const delegate = (n: number) => ({ tool: 'delegate', args: { to: 'worker', goal: `part ${n}` } });
    const planner = await createTestAgent(s.t.db, fx.teamId, {
      script: [{ calls: [delegate(1), delegate(2), delegate(3)] }, { calls: [delegate(4), delegate(5), delegate(6)] }, { finish: 'all parts done' }],
    });
    const worker = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'part done' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'worker', agent: worker },
      ],
      edges: [{ from: 'planner', to: 'worker', budget: { calls: 50 } }],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });

    const first = await pausedOn(fx, run.runId, 1);
    expect(first).toMatchObject({
      kind: 'breaker',
      tool: 'delegate',
      args: { to: 'worker', goal: 'part 3' },
      breaker: { name: 'fanOut', scope: 'graphRun', observed: 3, limit: 2 },
    });
    expect(first.reason).toMatch(/3 delegations of the graph run in flight at once; the limit is 2/);
    await decide(fx, first.id, 'approve');
    // The window restarted: the three of the first turn returned, the second turn trips on its 3rd again.
    const second = await pausedOn(fx, run.runId, 2);
    expect(second.args).toEqual({ to: 'worker', goal: 'part 6' });
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'delegation.sent' } })).toBe(5);
    await decide(fx, second.id, 'reject');
    await expectTripsAndCancel(fx, run.runId, 'fanOut', 2);
  });
});
