import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import type { Queryable } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';
import { PolicyVersions } from './policy-versions';

/**
 * A saved policy binds the decisions made after it, at once: through the real API (policies.save,
 * runs.create) and the real worker, a run started in the same moment as a save is decided by the
 * saved version, breakers included, even when the worker has just decided calls under the version
 * before it.
 */

const s = setUpRuntimeSuite('policy-versions');
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });
const OFF = { noProgress: { enabled: false }, spendRate: { enabled: false }, fanOut: { enabled: false } };

let fx: TeamFixture;
beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
});
const as = (role: 'admin' | 'operator' | 'approver') => callerAs(api(), { userId: fx.members[role].id });
const save = async (document: Record<string, unknown>) => (await as('admin')).policies.save({ teamId: fx.teamId, document: { version: 1, ...document } });
const executions = async (runId: string) => (await s.worker.pool.query(`SELECT 1 FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [runId])).rowCount ?? 0;

/** An agent (made through the API) whose scripted model makes the same `record` call six times, then finishes. */
async function repeatingAgent(): Promise<string> {
  const script: ScriptTurn[] = [
    { calls: [{ tool: 'load_tools', args: { names: ['record'] } }] },
    ...Array.from({ length: 6 }, () => ({ calls: [{ tool: 'record', args: { file: 'same.txt' } }] })),
    { finish: 'done' },
  ];
  const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script });
  const agent = await (await as('operator')).agents.create({ teamId: fx.teamId, name: `repeats-${Date.now()}`, endpointId, tools: testToolSpecs });
  return agent.id;
}

const start = async (agentId: string) => (await (await as('operator')).runs.create({ teamId: fx.teamId, agentId, goal: 'repeat yourself' })).runId;

/** The run once it parked or finished. */
const settled = (runId: string) =>
  waitFor(
    async () => {
      const run = await s.t.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ['waiting', 'succeeded', 'failed', 'cancelled'].includes(run.status) ? run : undefined;
    },
    20_000,
    `run ${runId} to park or finish`,
  );

describe('a saved policy binds the next decision', () => {
  it('breakers: repeatCall tightened to 3 and a run started at once pause at its third call, right after calls decided under the old version', async () => {
    await save({ name: 'loose', default: 'allow', breakers: { ...OFF, repeatCall: { times: 10, windowTurns: 10 } } });
    const agentId = await repeatingAgent();
    // The worker decides six calls under the loose version (and would keep it, were it cached)...
    const warm = await start(agentId);
    expect((await waitForRun(s.t.db, warm)).status).toBe('succeeded');
    expect(await executions(warm)).toBe(6);

    // ...then the save and the run come in the same moment.
    await save({ name: 'tight', default: 'allow', breakers: { ...OFF, repeatCall: { times: 3, windowTurns: 10 } } });
    const runId = await start(agentId);
    const run = await settled(runId);
    expect(run.status).toBe('waiting');
    expect(await executions(runId)).toBe(2);
    const [approval] = await s.t.db.approval.findMany({ where: { runId, kind: 'breaker' } });
    expect(approval).toMatchObject({ status: 'pending', tool: 'record' });
    const trip = await s.t.db.auditLog.findFirstOrThrow({ where: { teamId: fx.teamId, action: 'breaker.tripped', targetId: runId } });
    const tight = await s.t.db.policyVersion.findFirstOrThrow({ where: { policy: { teamId: fx.teamId }, document: { path: ['name'], equals: 'tight' } } });
    expect(trip.data).toMatchObject({ breaker: 'repeatCall', observed: 3, limit: 3, policyVersionId: tight.id });
  });

  it('rules: a deny saved right after an allowed call refuses the next run', async () => {
    await save({ name: 'allow', default: 'allow', breakers: { ...OFF, repeatCall: { enabled: false } } });
    const agentId = await repeatingAgent();
    const warm = await start(agentId);
    expect((await waitForRun(s.t.db, warm)).status).toBe('succeeded');
    await save({ name: 'deny record', default: 'allow', rules: [{ id: 'no-record', match: { tool: 'record' }, outcome: 'deny', reason: 'not now' }] });
    const runId = await start(agentId);
    expect((await waitForRun(s.t.db, runId)).status).toBe('succeeded');
    expect(await executions(runId)).toBe(0);
    const decided = await s.t.db.event.findMany({ where: { runId, type: 'policy.decided' }, select: { payload: true } });
    expect(decided.map((e) => (e.payload as { decision: string; ruleId?: string }).ruleId)).toEqual(Array(6).fill('no-record'));
  });
});

describe('PolicyVersions', () => {
  it('reads the current version on every read, and sends a document only for a version it does not hold', async () => {
    const rows: Record<string, unknown>[] = [];
    // The real pool, with each answer kept for the test to look at.
    const pool: Queryable = {
      query: async (statement) => {
        const result = await s.worker.pool.query(statement);
        rows.push(...(result.rows as Record<string, unknown>[]));
        return result;
      },
    };
    const versions = new PolicyVersions({ pool, logger: pino({ level: 'silent' }) });
    const team = await createTeamFixture(s.t.db);
    const admin = await callerAs(api(), { userId: team.members.admin.id });
    const saveOwn = (name: string) => admin.policies.save({ teamId: team.teamId, document: { version: 1, name, default: 'allow' } });

    expect((await versions.current(team.teamId)).active).toMatchObject({ versionId: null, version: null });
    await saveOwn('one');
    expect((await versions.current(team.teamId)).active).toMatchObject({ version: 1, document: { name: 'one' } });
    expect((await versions.current(team.teamId)).active).toMatchObject({ version: 1, document: { name: 'one' } });
    await saveOwn('two');
    // Reads asked for together: each statement starts after its read, and each sees version 2.
    const [a, b] = await Promise.all([versions.current(team.teamId), versions.current(team.teamId)]);
    expect([a.active.document.name, b.active.document.name]).toEqual(['two', 'two']);
    expect((await versions.current(team.teamId)).active).toMatchObject({ version: 2, document: { name: 'two' } });
    // The shadow is read with it.
    await admin.policies.setShadow({ teamId: team.teamId, version: 1 });
    expect((await versions.current(team.teamId)).shadow).toMatchObject({ version: 1, document: { name: 'one' } });
    expect((await versions.current(team.teamId)).shadow).toMatchObject({ version: 1, document: { name: 'one' } });

    // [active version, active document sent, shadow document sent] per statement (none for the team without a policy).
    const sent = rows.map((row) => [row.activeVersion, row.activeDocument !== null, row.shadowDocument !== null]);
    const together = sent.slice(2, -3);
    expect(sent.slice(0, 2)).toEqual([
      [1, true, false],
      [1, false, false],
    ]);
    // The two reads asked for together may both have gone out before either held version 2.
    expect(together.length).toBeGreaterThanOrEqual(1);
    expect(together.every(([version]) => version === 2)).toBe(true);
    expect(sent.slice(-3)).toEqual([
      [2, false, false],
      [2, false, true],
      [2, false, false],
    ]);
  });
});
