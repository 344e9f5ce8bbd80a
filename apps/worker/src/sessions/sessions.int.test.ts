import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, createTestLive, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { loadSessionEvents } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import { forkBlocker, foldUntil, type EngineEvent } from '@looplane/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

/**
 * Session trees end to end: the API's sessions procedures against a real worker, Postgres and
 * Redis. Forks read their parent's log through the ancestry (nothing copied), start with the
 * parent's exact state, never re-run the parent's tool calls, and run to completion.
 */
const s = setUpRuntimeSuite('sessions');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
/** Six tool turns, then an answer: a finished run of 50+ events. */
const script = [
  ...Array.from({ length: 6 }, (_, i) => ({ say: `step ${i + 1}`, calls: [{ tool: 'record', args: { step: i + 1 } }] })),
  { finish: 'original answer' },
];

let fx: TeamFixture;
/** The API wired to the worker's queue (forks run) and to a queue nobody consumes (forks stay idle). */
let live: ApiDeps;
let idle: ApiDeps;
let idleLive: TestLive;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  // The team's policy lets the test tools run (the default policy denies tools it does not know).
  const policy = await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'test tools', activeVersion: 1 } });
  const document = {
    version: 1,
    name: 'test tools',
    default: 'deny',
    rules: [{ id: 'test-tools', match: { tool: ['record', 'slow', 'echo'] }, outcome: 'allow' }],
  };
  await s.t.db.policyVersion.create({ data: { policyId: policy.id, version: 1, document } });
  live = { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) };
  idleLive = await createTestLive();
  idle = { db: s.t.db, dispatch: idleLive.dispatch };
});
afterAll(async () => {
  await idleLive?.close();
});

const operator = (deps: ApiDeps) => callerAs(deps, { userId: fx.members.operator.id });

async function finishedRun(thinkMs = 0) {
  const agent = await createTestAgent(s.t.db, fx.teamId, { script, thinkMs });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.client.enqueue({ ...run, reason: 'start' });
  expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
  return run;
}

const log = (sessionId: string) => loadSessionEvents(s.worker.pool, sessionId);
const waitForSession = (sessionId: string, status = 'succeeded') =>
  waitFor(
    async () => {
      const row = await s.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
      return row.status === status ? row : undefined;
    },
    20_000,
    `session ${sessionId} to be ${status}`,
  );

async function executions(sessionId: string): Promise<string[]> {
  const rows = await s.worker.pool.query(`SELECT call_id FROM ${TOOL_CALLS_TABLE} WHERE session_id = $1 ORDER BY at`, [sessionId]);
  return (rows.rows as { call_id: string }[]).map((r) => r.call_id);
}

/** The newest branch of a tree. */
const tree0 = (tree: { sessions: { id: string; forkSeq: number | null }[] }) => tree.sessions.at(-1)!;

/** A seq after which the log is forkable (after the n-th `tool.finished`). */
function afterToolFinished(events: readonly EngineEvent[], n: number): number {
  return events.filter((e) => e.type === 'tool.finished')[n - 1]!.seq;
}

describe('sessions.fork', () => {
  it('forks at every event of a 50-event run: each branch replays to the parent’s state there, refused where in flight, with no event copied', async () => {
    const run = await finishedRun();
    const parent = await log(run.sessionId);
    expect(parent.length).toBeGreaterThanOrEqual(50);
    const api = await operator(idle);
    const eventRows = await s.t.db.event.count();
    let forked = 0;
    for (const event of parent) {
      const expected = foldUntil(parent, event.seq);
      const blocker = forkBlocker(expected);
      const attempt = api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: event.seq });
      if (blocker) {
        await expect(attempt, `seq ${event.seq} (${event.type})`).rejects.toMatchObject({
          code: 'PRECONDITION_FAILED',
          message: `Cannot fork at event ${event.seq}: ${blocker}`,
        });
        continue;
      }
      const { sessionId } = await attempt;
      forked++;
      const branch = await log(sessionId);
      expect(branch.map((e) => e.seq)).toEqual(parent.slice(0, event.seq).map((e) => e.seq));
      expect(foldUntil(branch, event.seq), `state at seq ${event.seq}`).toEqual(expected);
      const row = await s.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
      expect(row).toMatchObject({ parentId: run.sessionId, forkSeq: event.seq, lastSeq: event.seq, status: 'idle' });
    }
    expect(forked).toBeGreaterThan(10);
    // The timeline's "Fork from here" says the same per event, for the parent and through a branch's ancestry.
    const listed = await api.sessions.events({ teamId: fx.teamId, sessionId: run.sessionId });
    expect(listed.events.map((e) => [e.seq, e.forkBlocker])).toEqual(parent.map((e) => [e.seq, forkBlocker(foldUntil(parent, e.seq))]));
    const last = tree0(await api.sessions.tree({ teamId: fx.teamId, runId: run.runId }));
    const throughBranch = await api.sessions.events({ teamId: fx.teamId, sessionId: last.id });
    expect(throughBranch.events.every((e) => e.inherited && e.sessionId === run.sessionId)).toBe(true);
    expect(throughBranch.events).toHaveLength(last.forkSeq!);
    // O(1) per fork: no event row was written or copied (one Session row each, nothing else).
    expect(await s.t.db.event.count()).toBe(eventRows);
    const tree = await api.sessions.tree({ teamId: fx.teamId, runId: run.runId });
    expect(tree.sessions).toHaveLength(forked + 1);
    expect(tree.sessions.filter((x) => x.isMain).map((x) => x.id)).toEqual([run.sessionId]);
    expect(await s.t.db.auditLog.count({ where: { teamId: fx.teamId, action: 'session.forked' } })).toBeGreaterThanOrEqual(forked);
  });

  it('refuses bad fork points with a clear error and changes nothing', async () => {
    const run = await finishedRun();
    const api = await operator(idle);
    const before = await s.t.db.session.count();
    await expect(api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: 10_000 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const requested = (await log(run.sessionId)).find((e) => e.type === 'model.requested')!;
    await expect(api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: requested.seq })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('model call') as unknown as string,
    });
    const started = (await log(run.sessionId)).find((e) => e.type === 'tool.started')!;
    await expect(api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: started.seq })).rejects.toMatchObject({
      message: expect.stringContaining('is running at this event') as unknown as string,
    });
    const viewer = await callerAs(idle, { userId: fx.members.viewer.id });
    await expect(viewer.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await s.t.db.session.count()).toBe(before);
  });

  it('a fork with a new message runs to completion without re-running the parent’s tool calls', async () => {
    const run = await finishedRun();
    const parent = await log(run.sessionId);
    const parentCalls = await executions(run.sessionId);
    expect(parentCalls).toHaveLength(6);
    const at = afterToolFinished(parent, 3);
    const api = await operator(live);
    const { sessionId } = await api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, message: 'Try another way.' });
    await waitForSession(sessionId);

    const branch = await log(sessionId);
    const own = branch.filter((e) => e.seq > at);
    expect(own[0]).toMatchObject({ type: 'session.forked', payload: { parentSessionId: run.sessionId, atSeq: at } });
    expect(own[1]).toMatchObject({ type: 'message.added', payload: { role: 'user', text: 'Try another way.' } });
    // The branch made its own calls for turns 4..6 only; the parent's three earlier ones never ran again.
    const branchCalls = await executions(sessionId);
    expect(branchCalls).toHaveLength(3);
    expect(await executions(run.sessionId)).toEqual(parentCalls);
    const inherited = new Set(parent.filter((e) => e.seq <= at && e.type === 'tool.started').map((e) => (e.payload as { callId: string }).callId));
    expect(branchCalls.filter((id) => inherited.has(id))).toEqual([]);
    // Own events are numbered after the fork point, without gaps.
    expect(own.map((e) => e.seq)).toEqual(own.map((_, i) => at + 1 + i));
    // The run is still the main line's: the branch did not finish it again.
    const runRow = await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect(runRow).toMatchObject({ status: 'succeeded', result: 'original answer', mainSessionId: run.sessionId });
    const tree = await api.sessions.tree({ teamId: fx.teamId, runId: run.runId });
    const node = tree.sessions.find((x) => x.id === sessionId)!;
    expect(node).toMatchObject({ parentId: run.sessionId, forkSeq: at, status: 'succeeded', isMain: false, ownEventCount: node.eventCount - at });
  });

  it('fork of a fork of a fork: each reads its whole ancestry and runs on', async () => {
    const run = await finishedRun();
    const api = await operator(live);
    const a = await log(run.sessionId);
    const b = await api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: afterToolFinished(a, 1), message: 'b' });
    await waitForSession(b.sessionId);
    const bLog = await log(b.sessionId);
    const c = await api.sessions.fork({ teamId: fx.teamId, sessionId: b.sessionId, atEvent: afterToolFinished(bLog, 3), message: 'c' });
    await waitForSession(c.sessionId);
    const cLog = await log(c.sessionId);
    const d = await api.sessions.fork({ teamId: fx.teamId, sessionId: c.sessionId, atEvent: afterToolFinished(cLog, 5), message: 'd' });
    await waitForSession(d.sessionId);
    const dLog = await log(d.sessionId);

    expect(c.parentId).toBe(b.sessionId);
    expect(d.parentId).toBe(c.sessionId);
    // D's log: A's events to B's fork point, B's to C's, C's to D's, then its own.
    expect(foldUntil(dLog, d.atEvent)).toEqual(foldUntil(cLog, d.atEvent));
    expect(foldUntil(dLog, c.atEvent)).toEqual(foldUntil(bLog, c.atEvent));
    expect(foldUntil(dLog, b.atEvent)).toEqual(foldUntil(a, b.atEvent));
    expect(dLog.map((e) => e.seq)).toEqual(dLog.map((_, i) => i + 1));
    expect(dLog.filter((e) => e.type === 'session.forked').map((e) => (e.payload as { parentSessionId: string }).parentSessionId)).toEqual([
      run.sessionId,
      b.sessionId,
      c.sessionId,
    ]);
    // Forking D at an event it inherited from A branches off A, where the logs really diverge.
    const e = await api.sessions.fork({ teamId: fx.teamId, sessionId: d.sessionId, atEvent: 1 });
    expect(e.parentId).toBe(run.sessionId);
    // The tool ran once per branch per turn it made itself: 6 in A, 5 in B, 3 in C, 1 in D.
    expect((await executions(run.sessionId)).length).toBe(6);
    expect((await executions(b.sessionId)).length).toBe(5);
    expect((await executions(c.sessionId)).length).toBe(3);
    expect((await executions(d.sessionId)).length).toBe(1);
  });
});

describe('sessions.fork with agent overrides', () => {
  it('a branch may get another system prompt and endpoint of the team, from the fork point on', async () => {
    const run = await finishedRun();
    const parent = await log(run.sessionId);
    const at = afterToolFinished(parent, 1);
    const api = await operator(live);
    const foreign = await createTestAgent(s.t.db, fx.otherTeamId, { script });
    await expect(
      api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, agentOverrides: { endpointId: foreign.endpointId } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such model endpoint in this team' });
    const { sessionId } = await api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, agentOverrides: { systemPrompt: 'Be terse.' } });
    await waitForSession(sessionId);
    const branch = await log(sessionId);
    const forked = branch.find((e) => e.seq === at + 1)!;
    expect(forked).toMatchObject({ type: 'session.forked', payload: { config: { systemPrompt: 'Be terse.' } } });
    const state = foldUntil(branch, at + 1);
    expect(state.context[0]).toMatchObject({ kind: 'system', message: { role: 'system', content: expect.stringContaining('Be terse.') as unknown as string } });
    expect(foldUntil(parent, at).context.some((item) => item.kind === 'system')).toBe(false);
    // Up to the fork point the branch is the parent, prompt and all.
    expect(foldUntil(branch, at)).toEqual(foldUntil(parent, at));
  });
});

describe('sessions.resume, sessions.promote, sessions.diff', () => {
  it('resumes a finished branch with a new instruction, promotes it, and compares it with the old main line', async () => {
    const run = await finishedRun();
    const api = await operator(live);
    const parent = await log(run.sessionId);
    const at = afterToolFinished(parent, 2);
    const fork = await api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, message: 'Branch out.' });
    const branch = await waitForSession(fork.sessionId);
    expect(branch.result).toBe('original answer');

    // Resume: a finished branch continues from its last state.
    const resumed = await api.sessions.resume({ teamId: fx.teamId, sessionId: fork.sessionId, message: 'One more thing.' });
    expect(resumed.status).toBe('idle');
    await waitFor(async () => (await log(fork.sessionId)).some((e) => e.type === 'run.resumed') || undefined, 10_000, 'the resume');
    await waitForSession(fork.sessionId);
    const after = await log(fork.sessionId);
    const tail = after.slice(after.findIndex((e) => e.type === 'run.resumed'));
    expect(tail.map((e) => e.type)).toContain('message.added');
    expect(tail.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'succeeded' } });
    expect(after.filter((e) => e.type === 'run.finished')).toHaveLength(2);
    await expect(api.sessions.resume({ teamId: fx.teamId, sessionId: fork.sessionId, message: 'x' })).resolves.toBeTruthy();
    await waitForSession(fork.sessionId);

    // Promote: the run's main line, status and result follow the branch; the old one stays readable.
    await s.t.db.session.update({ where: { id: fork.sessionId }, data: { result: 'branch answer' } });
    const promoted = await api.sessions.promote({ teamId: fx.teamId, sessionId: fork.sessionId });
    expect(promoted).toMatchObject({ mainSessionId: fork.sessionId, previousMainSessionId: run.sessionId, status: 'succeeded' });
    expect(await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({
      mainSessionId: fork.sessionId,
      result: 'branch answer',
      status: 'succeeded',
    });
    const tree = await api.sessions.tree({ teamId: fx.teamId, runId: run.runId });
    expect(tree.sessions.find((x) => x.isMain)?.id).toBe(fork.sessionId);
    expect(tree.sessions.find((x) => x.id === run.sessionId)?.eventCount).toBe(parent.length);
    expect(await s.t.db.auditLog.count({ where: { teamId: fx.teamId, action: { in: ['session.promoted', 'session.resumed'] } } })).toBeGreaterThanOrEqual(3);

    // Diff: diverged after the fork point; each side's later events; the test tools change no file.
    const diff = await api.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: fork.sessionId });
    expect(diff.divergedAfter).toBe(at);
    expect(diff.a.events.map((e) => e.seq)).toEqual(parent.filter((e) => e.seq > at).map((e) => e.seq));
    expect(diff.b.events[0]).toMatchObject({ sessionId: fork.sessionId, seq: at + 1, type: 'session.forked' });
    expect(diff).toMatchObject({ files: '', filesReason: 'neither branch changed a file', commits: { a: null, b: null } });

    // A finished run continues on its main line when that branch is resumed (the run is queued again).
    await api.sessions.resume({ teamId: fx.teamId, sessionId: fork.sessionId, message: 'And finally this.' });
    expect((await waitForRun(s.t.db, run.runId, 'succeeded')).mainSessionId).toBe(fork.sessionId);
  });

  it('refuses to resume a branch that has not finished', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script });
    const run = await createTestRun(s.t.db, agent, { config });
    const api = await operator(idle);
    await expect(api.sessions.resume({ teamId: fx.teamId, sessionId: run.sessionId, message: 'go' })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    await expect(api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: 1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
