import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { parseRunConfig } from '@looplane/engine';
import type { TeamActivity } from '@looplane/queue';
import type { ApiDeps } from '../context';
import { callerAs, createAgentFixture, createTeamFixture, issueToken, type AgentFixture, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;
let agent: AgentFixture;

const as = (role: keyof TeamFixture['members']) => callerAs(deps, { userId: fx.members[role].id });
const jobsFor = async (runId: string) => (await live.jobs()).filter((job) => job.runId === runId);

async function auditOf(runId: string) {
  return db.db.auditLog.findMany({ where: { targetId: runId }, orderBy: { seq: 'asc' } });
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId, { busyPolicy: 'enqueue' });
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('runs.create', () => {
  it('writes run, root session, ledger and audit in one go, then enqueues and announces', async () => {
    const heard: TeamActivity[] = [];
    const stop = await live.bus.onTeamActivity(fx.teamId, (message) => heard.push(message));
    const api = await as('operator');
    const { runId } = await api.runs.create({
      teamId: fx.teamId,
      agentId: agent.agentId,
      goal: 'Fix the flaky test',
      budget: { tokens: 5000, costMicros: 20_000, toolCalls: 7, onExceed: 'fail' },
    });

    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId }, include: { sessions: true, ledgers: true } });
    expect(run).toMatchObject({
      teamId: fx.teamId,
      agentId: agent.agentId,
      goal: 'Fix the flaky test',
      status: 'queued',
      createdById: fx.members.operator.id,
      createdByTokenId: null,
      busyPolicy: 'enqueue',
    });
    expect(run.sessions).toHaveLength(1);
    const session = run.sessions[0]!;
    expect(run.rootSessionId).toBe(session.id);
    expect(run.mainSessionId).toBe(session.id);
    expect(session).toMatchObject({ agentId: agent.agentId, endpointId: agent.endpointId, status: 'idle', parentId: null });
    // A complete engine config: parsing it again changes nothing.
    const config = parseRunConfig(session.config);
    expect(config).toEqual(session.config);
    expect(config.model).toEqual({ model: 'faux-1', contextWindow: 32_000, maxOutputTokens: 1024, inputMicrosPerMTok: 100, outputMicrosPerMTok: 400 });
    expect(config.systemPrompt).toBe('You are a test agent.');
    expect(config.tools.map((t) => t.name)).toEqual(['echo']);
    expect(config.onBudgetExceeded).toBe('fail');
    expect(config.compaction.summarizer).toBe('deterministic');
    expect(run.ledgers).toHaveLength(1);
    expect(run.ledgers[0]).toMatchObject({ scope: 'run', scopeId: '', limitTokens: 5000n, limitCostMicros: 20_000n, limitCalls: 7 });
    expect(await db.db.event.count({ where: { runId } })).toBe(0);

    const audit = await auditOf(runId);
    expect(audit.map((a) => a.action)).toEqual(['run.created']);
    expect(audit[0]).toMatchObject({ actorType: 'user', actorId: fx.members.operator.id });

    expect(await jobsFor(runId)).toEqual([{ runId, sessionId: session.id, reason: 'start' }]);
    await expect.poll(() => heard, { timeout: 5000 }).toContainEqual({ kind: 'run.status', runId, status: 'queued' });
    await stop();
  });

  it('without a budget the ledger is unlimited; a token is recorded as the creator’s token', async () => {
    const token = await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator');
    const api = await callerAs(deps, { bearer: token.secret });
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'Anything' });
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId }, include: { ledgers: true } });
    expect(run).toMatchObject({ createdById: fx.members.operator.id, createdByTokenId: token.id });
    expect(run.ledgers[0]).toMatchObject({ limitTokens: null, limitCostMicros: null, limitCalls: null });
    expect((await auditOf(runId))[0]).toMatchObject({ actorType: 'token', actorId: token.id });
  });

  it('expands a slash command, and names the available ones for an unknown command', async () => {
    const api = await as('operator');
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: '/triage login fails on Safari' });
    expect((await db.db.run.findUniqueOrThrow({ where: { id: runId } })).goal).toBe('Triage this report: login fails on Safari');
    await expect(api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: '/deploy now' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'unknown command /deploy; available: /triage, /standup',
    });
    await expect(api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: '/triage' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('/triage needs <report>'),
    });
  });

  it('refuses unknown graphs, and agents of other teams or archived ones, as not found', async () => {
    const api = await as('operator');
    await expect(api.runs.create({ teamId: fx.teamId, graphId: 'g1', goal: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('No such graph'),
    });
    const archived = await createAgentFixture(db.db, fx.teamId, { archivedAt: new Date() });
    await expect(api.runs.create({ teamId: fx.teamId, agentId: archived.agentId, goal: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('runs.cancel', () => {
  it('records who asked, tells the workers and enqueues the main session; twice is harmless', async () => {
    const cancels: unknown[] = [];
    const stop = await live.bus.onCancel((message) => cancels.push(message));
    const { runId } = await (await as('operator')).runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'long job' });
    const api = await as('operator');
    const first = await api.runs.cancel({ teamId: fx.teamId, runId });
    expect(first.alreadyRequested).toBe(false);
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.cancelRequestedAt).toEqual(first.cancelRequestedAt);
    expect(run.cancelledById).toBe(fx.members.operator.id);
    // The API never decides the outcome: the worker appends the cancellation.
    expect(run.status).toBe('queued');
    expect(await db.db.event.count({ where: { runId } })).toBe(0);
    expect((await jobsFor(runId)).map((j) => j.reason)).toEqual(['start', 'cancel']);
    await expect.poll(() => cancels, { timeout: 5000 }).toContainEqual({ runId });

    const second = await api.runs.cancel({ teamId: fx.teamId, runId });
    expect(second).toMatchObject({ alreadyRequested: true, cancelRequestedAt: first.cancelRequestedAt });
    expect((await auditOf(runId)).map((a) => a.action)).toEqual(['run.created', 'run.cancel_requested']);
    await stop();
  });

  it('a finished run cannot be cancelled', async () => {
    const { runId } = await (await as('operator')).runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'done soon' });
    await db.db.run.update({ where: { id: runId }, data: { status: 'succeeded', finishedAt: new Date() } });
    await expect((await as('operator')).runs.cancel({ teamId: fx.teamId, runId })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'The run already finished (succeeded)',
    });
  });
});

describe('runs.sendMessage', () => {
  it('goes to the inbox, and wakes a session that is not running', async () => {
    const inbox: unknown[] = [];
    const { runId } = await (await as('operator')).runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'chat' });
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    const stop = await live.bus.onInbox(run.mainSessionId!, (m) => inbox.push(m));
    const sent = await (await as('operator')).runs.sendMessage({ teamId: fx.teamId, runId, text: 'Also update the changelog' });
    expect(sent.delivered).toBe('wake');
    const message = await db.db.inboxMessage.findUniqueOrThrow({ where: { id: sent.messageId } });
    expect(message).toMatchObject({
      runId,
      sessionId: run.mainSessionId,
      text: 'Also update the changelog',
      createdById: fx.members.operator.id,
      consumedAt: null,
    });
    expect((await jobsFor(runId)).map((j) => j.reason)).toEqual(['start', 'message']);
    await expect.poll(() => inbox.length, { timeout: 5000 }).toBe(1);
    expect((await auditOf(runId)).map((a) => a.action)).toEqual(['run.created', 'run.message_sent']);
    await stop();
  });

  it('a running session only gets the inbox notice (it picks the message up at a step boundary)', async () => {
    const { runId } = await (await as('operator')).runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'busy' });
    const run = await db.db.run.update({ where: { id: runId }, data: { status: 'running' } });
    await db.db.session.update({ where: { id: run.mainSessionId! }, data: { status: 'running' } });
    const sent = await (await as('operator')).runs.sendMessage({ teamId: fx.teamId, runId, text: 'hi' });
    expect(sent.delivered).toBe('inbox');
    expect((await jobsFor(runId)).map((j) => j.reason)).toEqual(['start']);
  });

  it('busy policy reject refuses while running and writes nothing; cancelling runs take no messages', async () => {
    const strict = await createAgentFixture(db.db, fx.teamId, { busyPolicy: 'reject' });
    const api = await as('operator');
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: strict.agentId, goal: 'strict' });
    await db.db.run.update({ where: { id: runId }, data: { status: 'running' } });
    await expect(api.runs.sendMessage({ teamId: fx.teamId, runId, text: 'hi' })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect(await db.db.inboxMessage.count({ where: { runId } })).toBe(0);
    await db.db.run.update({ where: { id: runId }, data: { status: 'waiting', waitReason: 'message' } });
    await expect(api.runs.sendMessage({ teamId: fx.teamId, runId, text: 'now' })).resolves.toMatchObject({ delivered: 'wake' });

    const other = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'to cancel' });
    await api.runs.cancel({ teamId: fx.teamId, runId: other.runId });
    await expect(api.runs.sendMessage({ teamId: fx.teamId, runId: other.runId, text: 'wait' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('being cancelled'),
    });
  });
});

describe('runs.raiseBudget', () => {
  it('adds to the limits, keeps unlimited unlimited, records it, and resumes a run waiting on budget', async () => {
    const { runId } = await (await as('operator')).runs.create({
      teamId: fx.teamId,
      agentId: agent.agentId,
      goal: 'spendy',
      budget: { tokens: 100, onExceed: 'wait' },
    });
    await db.db.run.update({ where: { id: runId }, data: { status: 'waiting', waitReason: 'budget' } });
    const api = await as('approver');
    const raised = await api.runs.raiseBudget({ teamId: fx.teamId, runId, tokens: 50, costMicros: 1000 });
    expect(raised).toEqual({ runId, limits: { tokens: 150, costMicros: null, toolCalls: null }, resumed: true });
    const ledger = await db.db.budgetLedger.findFirstOrThrow({ where: { runId }, include: { entries: true } });
    expect(ledger.entries).toMatchObject([{ kind: 'raise', tokens: 50n, costMicros: 1000n, calls: 0 }]);
    expect((await jobsFor(runId)).map((j) => j.reason)).toEqual(['start', 'resume']);
    const audit = await auditOf(runId);
    expect(audit.map((a) => a.action)).toEqual(['run.created', 'budget.raised']);
    expect(audit[1]!.data).toMatchObject({ by: { tokens: 50, costMicros: 1000, toolCalls: 0 }, limits: { tokens: 150 } });
  });

  it('a queued run is not woken, and a finished one cannot be raised', async () => {
    const { runId } = await (await as('operator')).runs.create({
      teamId: fx.teamId,
      agentId: agent.agentId,
      goal: 'x',
      budget: { toolCalls: 3, onExceed: 'wait' },
    });
    const api = await as('approver');
    await expect(api.runs.raiseBudget({ teamId: fx.teamId, runId, toolCalls: 2 })).resolves.toMatchObject({ limits: { toolCalls: 5 }, resumed: false });
    expect((await jobsFor(runId)).map((j) => j.reason)).toEqual(['start']);
    await db.db.run.update({ where: { id: runId }, data: { status: 'failed' } });
    await expect(api.runs.raiseBudget({ teamId: fx.teamId, runId, toolCalls: 2 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
  });
});

describe('runs.get', () => {
  it('shows the run with its ledger, sessions, people and pending messages', async () => {
    const api = await as('operator');
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'inspect me', budget: { costMicros: 5000, onExceed: 'wait' } });
    await api.runs.sendMessage({ teamId: fx.teamId, runId, text: 'note' });
    await api.runs.cancel({ teamId: fx.teamId, runId });
    const run = await (await as('viewer')).runs.get({ teamId: fx.teamId, runId });
    expect(run).toMatchObject({
      id: runId,
      goal: 'inspect me',
      status: 'queued',
      agent: { id: agent.agentId, name: agent.agentName },
      createdBy: { id: fx.members.operator.id, email: fx.members.operator.email },
      cancelledBy: { id: fx.members.operator.id },
      ledger: { limitCostMicros: 5000, limitTokens: null, spentCostMicros: 0 },
      budget: { costMicros: 5000, onExceed: 'wait' },
      lastEventNo: 0,
      pendingMessages: 1,
    });
    expect(run.sessions).toHaveLength(1);
    expect(run.sessions[0]!.id).toBe(run.mainSessionId);
    expect(live.errors).toEqual([]);
  });
});
