import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { loadSessionEvents } from '@looplane/db';
import { createTestAgent, createTestGraphRun, createTestRun } from '@looplane/db/testing';
import type { EngineEvent, ScriptTurn } from '@looplane/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';

/**
 * `sessions.replay` end to end: the API against a real worker, Postgres and Redis, with two
 * scripted faux endpoints. The `append` test tool writes to a host file, outside the log, so the
 * file proves which calls really ran.
 */
const s = setUpRuntimeSuite('replay');
const appendSpec = { name: 'append', description: 'Append a line to a file.', idempotent: false };
const config = { tools: [appendSpec], toolLoading: 'eager' as const };
/** 1 µ$ per token in and out: every model call costs something. */
const prices = { inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 1_000_000 };

let fx: TeamFixture;
let api: ApiDeps;
let dir: string;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  const policy = await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'append', activeVersion: 1 } });
  const document = {
    version: 1,
    name: 'append',
    default: 'deny',
    rules: [{ id: 'replay-tools', match: { tool: ['append', 'delegate', 'memory_get'] }, outcome: 'allow' }],
  };
  await s.t.db.policyVersion.create({ data: { policyId: policy.id, version: 1, document } });
  api = { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) };
  dir = await mkdtemp(join(tmpdir(), 'looplane-replay-'));
});

const operator = () => callerAs(api, { userId: fx.members.operator.id });
const log = (sessionId: string) => loadSessionEvents(s.worker.pool, sessionId);
const waitForSession = (sessionId: string, status = 'succeeded') =>
  waitFor(
    async () => {
      const row = await s.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === status ? row : undefined;
    },
    30_000,
    `session ${sessionId} to be ${status}`,
  );
const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

/** `n` turns each appending one line (`line(i)`, i from 1), then the answer. */
function script(file: string, n: number, line: (i: number) => string): ScriptTurn[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({ say: `turn ${i + 1}`, calls: [{ tool: 'append', args: { file, line: line(i + 1) } }] })),
    { finish: `wrote ${n} lines` },
  ];
}

/** A recorded 30-turn session and a second endpoint that agrees for 12 turns, then writes other lines. */
async function recorded() {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, '');
  const agent = await createTestAgent(s.t.db, fx.teamId, { script: script(file, 30, (i) => `line ${i}`), ...prices });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.client.enqueue({ ...run, reason: 'start' });
  expect((await waitForRun(s.t.db, run.runId, undefined, 60_000)).status).toBe('succeeded');
  expect(await lines(file)).toHaveLength(30);
  const second = await createTestAgent(s.t.db, fx.teamId, { script: script(file, 30, (i) => (i <= 12 ? `line ${i}` : `other ${i}`)), ...prices });
  return { file, run, endpointId: second.endpointId };
}

const own = (events: EngineEvent[], after: number) => events.filter((e) => e.seq > after);
const served = (events: EngineEvent[]) => events.filter((e) => (e.type === 'tool.finished' || e.type === 'delegation.returned') && e.payload.replayed === true);

describe('sessions.replay', () => {
  it('stop: 12 recorded results served from the log (nothing ran again), then the report at turn 13', async () => {
    const { file, run, endpointId } = await recorded();
    const caller = await operator();
    const replay = await caller.sessions.replay({ teamId: fx.teamId, sessionId: run.sessionId, endpointId, mode: 'stop' });
    expect(replay).toMatchObject({ runId: run.runId, parentId: run.sessionId, atEvent: 1, mode: 'stop' });
    const row = await waitForSession(replay.sessionId);
    expect(row.replay).toEqual({ sourceSessionId: run.sessionId, atEvent: 1, mode: 'stop', endpointId });
    expect(row.result).toContain('turn 13');

    const events = own(await log(replay.sessionId), 1);
    expect(events[0]).toMatchObject({ type: 'session.forked', v: 2, payload: { replay: { sourceSessionId: run.sessionId, atEvent: 1, mode: 'stop' } } });
    expect(served(events)).toHaveLength(12);
    expect(events.filter((e) => e.type === 'tool.started' || e.type === 'policy.decided')).toHaveLength(0);
    // The file outside the log: the recording's 30 lines, not one more.
    expect(await lines(file)).toHaveLength(30);
    const report = events.find((e) => e.type === 'replay.diverged');
    expect(report?.payload).toMatchObject({
      turn: 13,
      replayTurn: 13,
      reason: 'different_call',
      callIndex: 0,
      mode: 'stop',
      sourceSessionId: run.sessionId,
      recorded: { calls: [{ name: 'append', args: { file, line: 'line 13' } }] },
      replayed: { calls: [{ name: 'append', args: { file, line: 'other 13' } }] },
    });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'succeeded' } });
    expect(events.filter((e) => e.type === 'model.responded')).toHaveLength(13);

    // Readable through the API: the compare view's diff carries the report, the tree the marker.
    const diff = await caller.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: replay.sessionId });
    expect(diff.divergedAfter).toBe(1);
    expect(diff.a.replay).toBeNull();
    expect(diff.b.replay).toMatchObject({ matchedTurns: 12, servedResults: 12, diverged: { turn: 13, seq: report!.seq } });
    expect(diff.b.spend.modelCalls).toBe(13);
    expect(diff.a.spend.modelCalls).toBe(31);
    const tree = await caller.sessions.tree({ teamId: fx.teamId, runId: run.runId });
    expect(tree.sessions.find((x) => x.id === replay.sessionId)?.replay).toMatchObject({ mode: 'stop', sourceSessionId: run.sessionId });
    expect(tree.sessions.find((x) => x.id === run.sessionId)?.replay).toBeNull();
    expect(await s.t.db.auditLog.count({ where: { teamId: fx.teamId, action: 'session.replayed', targetId: replay.sessionId } })).toBe(1);
  });

  it('live: turn 13 onward runs for real, under the policy, after the divergence report', async () => {
    const { file, run, endpointId } = await recorded();
    const caller = await operator();
    const replay = await caller.sessions.replay({ teamId: fx.teamId, sessionId: run.sessionId, endpointId, mode: 'live' });
    const row = await waitForSession(replay.sessionId);
    expect(row.result).toBe('wrote 30 lines');
    const events = own(await log(replay.sessionId), 1);
    expect(served(events)).toHaveLength(12);
    expect(events.filter((e) => e.type === 'replay.diverged')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool.started')).toHaveLength(18);
    expect(events.filter((e) => e.type === 'policy.decided' && e.payload.decision === 'allow')).toHaveLength(18);
    expect(await lines(file)).toEqual([...Array.from({ length: 30 }, (_, i) => `line ${i + 1}`), ...Array.from({ length: 18 }, (_, i) => `other ${i + 13}`)]);
  });

  it('the replay’s spend is its own and on the run’s ledger', async () => {
    const { run, endpointId } = await recorded();
    const ledger = () => s.t.db.budgetLedger.findFirstOrThrow({ where: { runId: run.runId, scope: 'run' } });
    const before = await ledger();
    const source = await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } });
    expect(Number(before.spentCostMicros)).toBe(Number(source.costMicros));
    const replay = await (await operator()).sessions.replay({ teamId: fx.teamId, sessionId: run.sessionId, endpointId, mode: 'stop' });
    const row = await waitForSession(replay.sessionId);
    const events = own(await log(replay.sessionId), 1);
    const cost = events.reduce((sum, e) => sum + (e.type === 'model.responded' ? e.payload.costMicros : 0), 0);
    expect(cost).toBeGreaterThan(0);
    expect(Number(row.costMicros)).toBe(cost);
    const after = await ledger();
    expect(Number(after.spentCostMicros)).toBe(Number(before.spentCostMicros) + cost);
    expect(Number(after.reservedCostMicros)).toBe(0);
    expect((await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).costMicros).toBe(source.costMicros);
  });

  it('replays a fork from the fork’s start (its message included) and refuses a start in the middle of a turn', async () => {
    const { file, run, endpointId } = await recorded();
    const caller = await operator();
    const parent = await log(run.sessionId);
    const at = parent.filter((e) => e.type === 'tool.finished')[4]!.seq;
    const fork = await caller.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, message: 'Keep going.' });
    await waitForSession(fork.sessionId);
    expect(await lines(file)).toHaveLength(55);
    const replay = await caller.sessions.replay({ teamId: fx.teamId, sessionId: fork.sessionId, endpointId, mode: 'stop' });
    // The fork's start: after session.forked and its message, before its first model call.
    expect(replay).toMatchObject({ atEvent: at + 2, parentId: fork.sessionId });
    await waitForSession(replay.sessionId);
    const events = own(await log(replay.sessionId), at + 2);
    // Turns 6..12 agree: 7 results served; turn 13 diverges.
    expect(served(events)).toHaveLength(7);
    expect(events.find((e) => e.type === 'replay.diverged')?.payload).toMatchObject({ turn: 13, replayTurn: 8, sourceSessionId: fork.sessionId });
    expect(await lines(file)).toHaveLength(55);
    const started = parent.find((e) => e.type === 'tool.requested')!.seq;
    await expect(caller.sessions.replay({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: started, endpointId, mode: 'stop' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
  });

  it('replays a graph run’s node session: its tool and delegation results served, no child run again', async () => {
    const coderScript: ScriptTurn[] = [
      { calls: [{ tool: 'memory_get', args: { key: 'notes/plan' } }] },
      { delegate: { to: 'reviewer', goal: 'Review the diff' } },
      { finish: 'code written and reviewed' },
    ];
    const planner = await createTestAgent(s.t.db, fx.teamId, { script: [{ delegate: { to: 'coder', goal: 'Write the code' } }, { finish: 'plan complete' }] });
    const coder = await createTestAgent(s.t.db, fx.teamId, { script: coderScript, ...prices });
    const reviewer = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'LGTM' }] });
    const run = await createTestGraphRun(s.t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'coder', agent: coder, read: ['notes/'] },
        { key: 'reviewer', agent: reviewer },
      ],
      edges: [
        { from: 'planner', to: 'coder', budget: { calls: 10 } },
        { from: 'coder', to: 'reviewer', budget: { calls: 5 } },
      ],
    });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId, undefined, 30_000)).status).toBe('succeeded');
    const node = await s.t.db.session.findFirstOrThrow({ where: { runId: run.runId, nodeKey: 'coder' } });
    const sessionsBefore = await s.t.db.session.count({ where: { runId: run.runId } });
    // Another endpoint that asks for the same calls, then answers differently.
    const second = await createTestAgent(s.t.db, fx.teamId, { script: [...coderScript.slice(0, 2), { finish: 'done differently' }], ...prices });
    const replay = await (await operator()).sessions.replay({ teamId: fx.teamId, sessionId: node.id, endpointId: second.endpointId, mode: 'stop' });
    const row = await waitForSession(replay.sessionId);
    expect(row.result).toBe('done differently');
    const events = own(await log(replay.sessionId), replay.atEvent);
    expect(served(events).map((e) => e.type)).toEqual(['tool.finished', 'delegation.returned']);
    expect(events.filter((e) => e.type === 'delegation.sent' || e.type === 'tool.started')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'replay.matched')).toHaveLength(3);
    // No child was delegated again: the tree grew by the replay branch alone.
    expect(await s.t.db.session.count({ where: { runId: run.runId } })).toBe(sessionsBefore + 1);
    expect(Number(row.costMicros)).toBeGreaterThan(0);
  });
});
