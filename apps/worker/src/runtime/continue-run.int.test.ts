import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';

/**
 * Long-lived runs end to end: `runs.sendMessage` against a real worker, Postgres, Redis and
 * BullMQ. A message to a finished run continues it on the same session and budget; a persistent
 * agent's run waits between messages holding nothing (no lease, no job) and answers each in turn.
 */
// Leases renewed rarely: a renewal never notices an inbox row that a test means only the finishing worker to see.
const s = setUpRuntimeSuite('continue-run', { leaseTtlMs: 600_000 });
const echo = { finish: 'Re: {{lastUserMessage}}' };

let fx: TeamFixture;
let deps: ApiDeps;
const operator = () => callerAs(deps, { userId: fx.members.operator.id });

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  deps = { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) };
  await s.client.follow(fx.teamId);
});

const eventsOf = (runId: string) => s.t.db.event.findMany({ where: { runId }, orderBy: { eventNo: 'asc' } });
const textOf = (payload: unknown) => (payload as { text?: string }).text;
const runLedger = (runId: string) => s.t.db.budgetLedger.findMany({ where: { runId }, include: { entries: true } });

/** Nothing is held for the run: no session of it leased, no job of it in the queue (what the waiting benchmark checks). */
async function holdsNothing(runId: string): Promise<boolean> {
  const leased = await s.t.db.session.count({ where: { runId, leaseOwner: { not: null } } });
  const jobs = await s.client.queue.getJobs(['active', 'waiting', 'delayed', 'prioritized'], 0, -1);
  return leased === 0 && (await s.client.queue.getActiveCount()) === 0 && !jobs.some((job) => job.data.runId === runId);
}

/** The run's status notices heard since `from` (an index into the team's activity). */
const statusesSince = (runId: string, from: number) =>
  s.client.activity
    .slice(from)
    .flatMap((a) => (a.kind === 'run.status' && a.runId === runId ? [a.status] : []))
    .filter((status, i, all) => status !== all[i - 1]);

describe('a message to a finished run', () => {
  it('continues it: running again on the same session, charged to the same ledger, finished again with a new result', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'first answer' }, echo], inputMicrosPerMTok: 100, outputMicrosPerMTok: 400 });
    const run = await createTestRun(s.t.db, agent, { budget: { costMicros: 1_000_000 } });
    await s.client.enqueue({ ...run, reason: 'start' });
    expect(await waitForRun(s.t.db, run.runId)).toMatchObject({ status: 'succeeded', result: 'first answer' });
    const [ledgerBefore] = await runLedger(run.runId);
    const eventsBefore = await eventsOf(run.runId);
    expect(ledgerBefore!.spentCostMicros).toBeGreaterThan(0n);

    const heardFrom = s.client.activity.length;
    const sent = await (await operator()).runs.sendMessage({ teamId: fx.teamId, runId: run.runId, text: 'Also the changelog?' });
    expect(sent.delivered).toBe('wake');
    const done = await waitFor(
      async () => {
        const row = await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } });
        return row.status === 'succeeded' && row.result !== null ? row : undefined;
      },
      20_000,
      'the run to finish again',
    );
    expect(done).toMatchObject({ result: 'Re: Also the changelog?', mainSessionId: run.sessionId });
    await expect.poll(() => statusesSince(run.runId, heardFrom), { timeout: 5000 }).toEqual(['queued', 'running', 'succeeded']);

    // The same session, its log continued where it finished: nothing rewritten, no new session.
    const events = await eventsOf(run.runId);
    expect(await s.t.db.session.count({ where: { runId: run.runId } })).toBe(1);
    expect(events.every((e) => e.sessionId === run.sessionId)).toBe(true);
    expect(events.slice(0, eventsBefore.length).map((e) => e.id)).toEqual(eventsBefore.map((e) => e.id));
    const added = events.slice(eventsBefore.length);
    expect(added.slice(0, 2).map((e) => [e.type, textOf(e.payload) ?? null])).toEqual([
      ['run.resumed', null],
      ['message.added', 'Also the changelog?'],
    ]);
    expect(added.at(-1)!.type).toBe('run.finished');
    expect(await s.t.db.inboxMessage.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({ consumedSeq: added[1]!.seq });
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);

    // One ledger for the whole run: the continuation's charges went onto it.
    const ledgers = await runLedger(run.runId);
    expect(ledgers.map((l) => l.id)).toEqual([ledgerBefore!.id]);
    const ledger = ledgers[0]!;
    expect(ledger.spentCostMicros).toBeGreaterThan(ledgerBefore!.spentCostMicros);
    expect(ledger.entries.length).toBeGreaterThan(ledgerBefore!.entries.length);
    expect(done.spentCostMicros).toBe(ledger.spentCostMicros);
  });

  it('continues within what is left of the run’s budget: with nothing left it waits for a raise', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'first answer' }, echo], inputMicrosPerMTok: 100_000 });
    const run = await createTestRun(s.t.db, agent, { budget: { costMicros: 1_000_000 } });
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    const [ledger] = await runLedger(run.runId);
    // What the first part spent is all the budget there is.
    await s.t.db.budgetLedger.update({ where: { id: ledger!.id }, data: { limitCostMicros: ledger!.spentCostMicros } });
    await (await operator()).runs.sendMessage({ teamId: fx.teamId, runId: run.runId, text: 'More?' });
    expect(await waitForRun(s.t.db, run.runId, 'waiting')).toMatchObject({ waitReason: 'budget' });
    const types = (await eventsOf(run.runId)).map((e) => e.type);
    expect(types.filter((t) => t === 'model.responded')).toHaveLength(1);
  });

  it('a message that reached the inbox while the run was finishing still continues it', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'first answer' }, echo] });
    const run = await createTestRun(s.t.db, agent);
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    // What a sender that still saw the run running did: an inbox row and a 'message' wake-up, no reopen.
    await s.t.db.inboxMessage.create({ data: { runId: run.runId, sessionId: run.sessionId, text: 'late news' } });
    await s.client.enqueue({ ...run, reason: 'message' });
    await waitFor(
      async () => (await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).result === 'Re: late news',
      20_000,
      'the late message to be answered',
    );
    expect((await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status).toBe('succeeded');
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('a message that reached the inbox unannounced while the run made its last step is taken up once it finished', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'first answer' }, echo], thinkMs: 800 });
    const run = await createTestRun(s.t.db, agent);
    await s.client.enqueue({ ...run, reason: 'start' });
    await waitFor(() => s.t.db.event.findFirst({ where: { runId: run.runId, type: 'model.requested' } }).then((e) => e ?? undefined), 10_000, 'the model call');
    // No notice and no wake-up: only the worker that finishes the run can see it.
    await s.t.db.inboxMessage.create({ data: { runId: run.runId, sessionId: run.sessionId, text: 'one more' } });
    await waitFor(
      async () => (await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).result === 'Re: one more',
      20_000,
      'the message to be answered',
    );
    const types = (await eventsOf(run.runId)).map((e) => e.type);
    expect(types.filter((t) => t === 'run.finished')).toHaveLength(2);
    expect(types).toContain('run.resumed');
  });
});

describe('a persistent agent’s run', () => {
  it('waits after each answer holding nothing, and answers 100 messages in order on one run', async () => {
    const MESSAGES = 100;
    const endpoint = await createTestAgent(s.t.db, fx.teamId, { script: Array.from({ length: MESSAGES + 1 }, () => echo) });
    const api = await operator();
    const agent = await api.agents.create({ teamId: fx.teamId, name: 'mailbox-watcher', endpointId: endpoint.endpointId, persistent: true });
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.id, goal: 'Watch the inbox.' });
    expect((await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })).persistent).toBe(true);

    const answered = (result: string) =>
      waitFor(
        async () => {
          const row = await s.t.db.run.findUniqueOrThrow({ where: { id: runId } });
          return row.status === 'waiting' && row.waitReason === 'message' && row.result === result && (await holdsNothing(runId)) ? row : undefined;
        },
        20_000,
        `the answer "${result}" with nothing held`,
      );
    await answered('Re: Watch the inbox.');

    const texts = Array.from({ length: MESSAGES }, (_, i) => `order ${i + 1}`);
    for (const text of texts) {
      expect((await api.runs.sendMessage({ teamId: fx.teamId, runId, text })).delivered).toBe('wake');
      await answered(`Re: ${text}`);
    }

    const events = await eventsOf(runId);
    expect(events.some((e) => e.type === 'run.finished')).toBe(false);
    expect(new Set(events.map((e) => e.sessionId)).size).toBe(1);
    // Each message is followed by its own answer, in the order they were sent.
    const conversation = events.flatMap((e) =>
      e.type === 'message.added' ? [`> ${textOf(e.payload)}`] : e.type === 'model.responded' ? [`< ${textOf(e.payload)}`] : [],
    );
    expect(conversation).toEqual(['< Re: Watch the inbox.', ...texts.flatMap((t) => [`> ${t}`, `< Re: ${t}`])]);
    expect(await logProblems(s.t.db, runId)).toEqual([]);
  }, 180_000);
});
