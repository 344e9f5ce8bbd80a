import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { sendMessage, setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';

const s = setUpRuntimeSuite('inbox');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };

const eventOf = (runId: string, type: string) => () => s.t.db.event.findFirst({ where: { runId, type } }).then((e) => e ?? undefined);

describe('messages to a run', () => {
  it('enqueue: a message to a busy run joins at the next step boundary and the row is marked consumed', async () => {
    const script = [{ calls: [{ tool: 'echo', args: { text: 'a' } }] }, { calls: [{ tool: 'echo', args: { text: 'b' } }] }, { finish: 'done' }];
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script, thinkMs: 600, busyPolicy: 'enqueue' });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(eventOf(run.runId, 'model.requested'), 10_000, 'the first model call');
    const messageId = await sendMessage(s.t.db, s.client, run, 'Also check the tests.');
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');

    const events = await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } });
    const added = events.find((e) => e.type === 'message.added')!;
    expect(added.payload).toEqual({ role: 'user', text: 'Also check the tests.' });
    // The model call in flight was not cut short: the message came after its answer.
    const firstAnswer = events.find((e) => e.type === 'model.responded')!;
    expect(added.seq).toBeGreaterThan(firstAnswer.seq);
    const message = await s.t.db.inboxMessage.findUniqueOrThrow({ where: { id: messageId } });
    expect(message.consumedAt).toBeInstanceOf(Date);
    expect(message.consumedSeq).toBe(added.seq);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('interrupt: a message aborts the step in flight (the tool is stopped) and is appended at once', async () => {
    const script = [{ calls: [{ tool: 'slow', args: { ms: 30_000 } }] }, { finish: 'understood' }];
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script, busyPolicy: 'interrupt' });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(eventOf(run.runId, 'tool.started'), 10_000, 'the slow tool');
    const sentAt = Date.now();
    await sendMessage(s.t.db, s.client, run, 'Stop that, do something else.');
    const done = await waitForRun(s.t.db, run.runId);
    expect(done.status).toBe('succeeded');
    expect(Date.now() - sentAt).toBeLessThan(5000);
    const types = (await s.t.db.event.findMany({ where: { runId: run.runId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    // The interrupted call is reported to the model (it is not idempotent, so it is not re-run).
    expect(types).toContain('message.added');
    expect(types).toContain('tool.interrupted');
    const executions = await s.worker.pool.query(`SELECT 1 FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId]);
    expect(executions.rowCount).toBe(0);
  });

  it('wakes a waiting run with a message, which is recorded while the wait goes on', async () => {
    const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db), { script: [{ finish: 'x' }], inputMicrosPerMTok: 1_000_000 });
    const run = await createTestRun(s.t.db, agent, { config, budget: { costMicros: 5 } });
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitForRun(s.t.db, run.runId, 'waiting');
    const messageId = await sendMessage(s.t.db, s.client, run, 'Any news?');
    await waitFor(async () => (await s.t.db.inboxMessage.findUniqueOrThrow({ where: { id: messageId } })).consumedAt ?? undefined, 10_000, 'consumption');
    await waitFor(async () => (await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).leaseOwner === null, 5000, 'the release');
    expect(await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({ status: 'waiting', waitReason: 'budget' });
  });
});
