import { createTeamFixture, issueToken, type TeamFixture } from '@looplane/api/testing';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import type { Role } from '@looplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { serveApiFor, type WorkerApi } from '../testing/served-api';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';

/**
 * Four-eyes against the real worker and the approvals API over HTTP: the requester of an
 * approval is whoever gave the instruction its call follows from — the run's creator, a fork's
 * author, a resume's author, a message's sender — and none of them may decide it. An operator
 * starts each run; the approver gives the instruction that leads to the held call; the approver is
 * refused, a third person (the admin) decides.
 */
const s = setUpRuntimeSuite('four-eyes');
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };
const POLICY = {
  version: 1,
  name: 'four eyes',
  default: 'allow',
  rules: [{ id: 'hold-record', match: { tool: 'record' }, outcome: 'require_approval', reason: 'record writes outside the log' }],
  approvals: { fourEyes: true },
};

let fx: TeamFixture;
let api: WorkerApi;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'default', activeVersion: 1, versions: { create: { version: 1, document: POLICY } } } });
  for (const role of ['operator', 'approver', 'admin'] as const) tokens[role] = (await issueToken(s.t.db, fx.teamId, fx.members[role].id, role)).secret;
  api = await serveApiFor(s.t.db, s);
});
afterAll(async () => {
  await api?.served.close();
});

/** A run the operator started (its creator), driven by the worker until it settles. */
async function operatorsRun(script: ScriptTurn[], settles: 'succeeded' | 'waiting' | 'running') {
  const agent = await createTestAgent(s.t.db, fx.teamId, { script });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.t.db.run.update({ where: { id: run.runId }, data: { createdById: fx.members.operator.id } });
  await s.client.enqueue({ ...run, reason: 'start' });
  await waitForRun(s.t.db, run.runId, settles);
  return run;
}

const pendingIn = (sessionId: string) =>
  waitFor(
    () => s.t.db.approval.findFirst({ where: { sessionId, status: 'pending' } }).then((a) => a ?? undefined),
    20_000,
    `a pending approval in ${sessionId}`,
  );

const decide = (role: Role, approvalId: string) => api.call('approvals.decide', tokens[role], { teamId: fx.teamId, approvalId, decision: 'approve' });

/** The approver is refused (four-eyes, through decide, decideMany and the inbox's canDecide); the admin decides; the call runs. */
async function approverRefusedAdminDecides(approvalId: string, sessionId: string) {
  const refused = await decide('approver', approvalId);
  expect(refused.status).toBe(403);
  expect(refused.error?.message).toMatch(/four-eyes: the call follows from your own instruction/);
  const many = await api.call('approvals.decideMany', tokens.approver, { teamId: fx.teamId, approvalIds: [approvalId], decision: 'approve' });
  expect(many.data).toMatchObject({ decided: 0, results: [{ approvalId, ok: false, error: expect.stringContaining('four-eyes') }] });
  const seen = await api.call('approvals.get', tokens.approver, { teamId: fx.teamId, approvalId }, 'query');
  expect(seen.data).toMatchObject({ canDecide: false, blocker: expect.stringContaining('four-eyes') });
  expect(await s.t.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'pending' });
  const byAdmin = await decide('admin', approvalId);
  expect(byAdmin.status, JSON.stringify(byAdmin.error)).toBe(200);
  await waitFor(
    async () => ((await s.t.db.event.count({ where: { sessionId, type: 'tool.finished' } })) > 0 ? true : undefined),
    20_000,
    'the approved call to run',
  );
}

describe('four-eyes: the requester is whoever gave the instruction', () => {
  it('an approver forks an operator’s run with her own instruction: she cannot approve the call that follows; the admin can; the operator’s own line she can', async () => {
    const script: ScriptTurn[] = [{ calls: [{ tool: 'echo', args: { text: 'look' } }] }, { calls: [{ tool: 'record', args: {} }] }, { finish: 'done' }];
    const run = await operatorsRun(script, 'waiting');
    const mainApproval = await pendingIn(run.sessionId);
    expect(mainApproval).toMatchObject({ requestedById: fx.members.operator.id, instructedByIds: [fx.members.operator.id] });
    const echoed = await s.t.db.event.findFirstOrThrow({ where: { sessionId: run.sessionId, type: 'tool.finished' } });

    const fork = await api.call('sessions.fork', tokens.approver, {
      teamId: fx.teamId,
      sessionId: run.sessionId,
      atEvent: echoed.seq,
      message: 'Record it now.',
    });
    expect(fork.status, JSON.stringify(fork.error)).toBe(200);
    const branchId = (fork.data as { sessionId: string }).sessionId;
    const branchApproval = await pendingIn(branchId);
    expect(branchApproval.requestedById).toBe(fx.members.approver.id);
    expect(branchApproval.instructedByIds).toEqual([fx.members.approver.id, fx.members.operator.id]);
    await approverRefusedAdminDecides(branchApproval.id, branchId);

    // The main line follows only the operator's instruction: the approver may decide it.
    expect((await decide('approver', mainApproval.id)).status).toBe(200);
  }, 60_000);

  it('a message sender cannot approve the call her message led to', async () => {
    // The slow call leaves time for the message on a busy machine (1.5 s was not always enough).
    const run = await operatorsRun(
      [{ calls: [{ tool: 'slow', args: { ms: 6000 } }] }, { calls: [{ tool: 'record', args: {} }] }, { finish: 'done' }],
      'running',
    );
    // Sent while the run works: the run reads it before its next model call.
    await waitFor(
      () => s.t.db.event.findFirst({ where: { sessionId: run.sessionId, type: 'tool.started' } }).then((e) => e ?? undefined),
      20_000,
      'the slow call to start',
    );
    const sent = await api.call('runs.sendMessage', tokens.approver, { teamId: fx.teamId, runId: run.runId, text: 'Now record it.' });
    expect(sent.status, JSON.stringify(sent.error)).toBe(200);
    const approval = await pendingIn(run.sessionId);
    expect(approval.instructedByIds).toEqual([fx.members.approver.id, fx.members.operator.id]);
    await approverRefusedAdminDecides(approval.id, run.sessionId);
  }, 60_000);

  it('a resume’s author cannot approve the call her instruction led to', async () => {
    const run = await operatorsRun([{ finish: 'first answer' }, { calls: [{ tool: 'record', args: {} }] }, { finish: 'done' }], 'succeeded');
    const resumed = await api.call('sessions.resume', tokens.approver, { teamId: fx.teamId, sessionId: run.sessionId, message: 'Go on and record it.' });
    expect(resumed.status, JSON.stringify(resumed.error)).toBe(200);
    const approval = await pendingIn(run.sessionId);
    expect(approval).toMatchObject({ requestedById: fx.members.approver.id });
    await approverRefusedAdminDecides(approval.id, run.sessionId);
  }, 60_000);

  it('an instruction stays counted after a later approval: the next held call is still not hers to decide', async () => {
    const script: ScriptTurn[] = [
      { finish: 'first answer' },
      { calls: [{ tool: 'record', args: {} }] },
      { calls: [{ tool: 'record', args: {} }] },
      { finish: 'done' },
    ];
    const run = await operatorsRun(script, 'succeeded');
    await api.call('sessions.resume', tokens.approver, { teamId: fx.teamId, sessionId: run.sessionId, message: 'Record twice.' });
    const first = await pendingIn(run.sessionId);
    expect((await decide('admin', first.id)).status).toBe(200);
    const second = await waitFor(
      () => s.t.db.approval.findFirst({ where: { sessionId: run.sessionId, status: 'pending', id: { not: first.id } } }).then((a) => a ?? undefined),
      20_000,
      'the second approval',
    );
    expect((await decide('approver', second.id)).status).toBe(403);
  }, 60_000);
});
