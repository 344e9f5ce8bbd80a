import { describe, expect, it } from 'vitest';
import type { Prisma } from '@looplane/db';
import type { TeamActivity } from '@looplane/queue';
import type { TeamFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });
let seq = 100;

const shellTool = {
  name: 'shell',
  description: 'Run a command.',
  idempotent: false,
  parameters: { type: 'object', properties: { command: { type: 'string', minLength: 1 } }, required: ['command'], additionalProperties: false },
};

/** A run started by `creator`, with `shell` in its catalogue (what edited arguments are checked against). */
async function runBy(creator: keyof TeamFixture['members']) {
  const { runId } = await (await tb.as(creator)).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'Clean up' });
  const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
  const session = await tb.db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! } });
  const config = { ...(session.config as Record<string, unknown>), tools: [shellTool] };
  await tb.db.session.update({ where: { id: session.id }, data: { config: config as Prisma.InputJsonValue, status: 'waiting', waitReason: 'approval' } });
  return { runId, sessionId: session.id, creatorId: tb.fx.members[creator].id };
}

/** A pending approval as the worker opens it. */
async function pending(run: { runId: string; sessionId: string; creatorId: string }, data: Partial<Prisma.ApprovalUncheckedCreateInput> = {}) {
  const requestSeq = seq++;
  return tb.db.approval.create({
    data: {
      teamId: tb.fx.teamId,
      runId: run.runId,
      sessionId: run.sessionId,
      requestSeq,
      toolCallId: `call-${requestSeq}`,
      tool: 'shell',
      args: { command: 'rm -rf build' },
      risk: 'high',
      policyRuleId: 'shell-destructive',
      requestedById: run.creatorId,
      ...data,
    },
  });
}

describe('approvals.decide', () => {
  it('approves once: the row, an audit row, a wake-up for the session and the live count; a second decision is CONFLICT', async () => {
    const run = await runBy('operator');
    const approval = await pending(run);
    const heard: TeamActivity[] = [];
    const stop = await tb.live.bus.onTeamActivity(tb.fx.teamId, (m) => heard.push(m));
    const api = await tb.as('approver');
    const result = await api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve', comment: 'ok' });
    expect(result).toMatchObject({ approvalId: approval.id, status: 'approved', runId: run.runId });
    expect(await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({
      status: 'approved',
      decidedById: tb.fx.members.approver.id,
      comment: 'ok',
      editedArgs: null,
    });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'approval.approved', targetId: approval.id } });
    expect(audit).toMatchObject({ actorType: 'user', actorId: tb.fx.members.approver.id, data: { runId: run.runId, tool: 'shell', comment: 'ok' } });
    expect((await tb.live.jobs()).filter((j) => j.sessionId === run.sessionId && j.reason === 'resume')).toEqual([
      { runId: run.runId, sessionId: run.sessionId, reason: 'resume' },
    ]);
    await expect.poll(() => heard.some((m) => m.kind === 'approvals.count')).toBe(true);
    await stop();

    await expect(api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'reject' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'The approval is already approved',
    });
    expect(await tb.db.auditLog.count({ where: { targetId: approval.id } })).toBe(1);
  });

  it("four-eyes keeps the run's creator from deciding; another approver may", async () => {
    const run = await runBy('approver');
    const approval = await pending(run, { fourEyes: true });
    await expect((await tb.as('approver')).approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('four-eyes'),
    });
    expect((await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe('pending');
    await (await tb.as('admin')).approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve' });
    expect((await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).decidedById).toBe(tb.fx.members.admin.id);
  });

  it('an approval that needs an admin (after escalation) refuses an approver', async () => {
    const approval = await pending(await runBy('operator'), { requiredRole: 'admin' });
    await expect((await tb.as('approver')).approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'reject' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      (await tb.as('admin')).approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'reject', comment: 'no' }),
    ).resolves.toMatchObject({ status: 'rejected' });
  });

  it("checks edited arguments against the tool's parameters and records the edit", async () => {
    const approval = await pending(await runBy('operator'));
    const api = await tb.as('approver');
    await expect(
      api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve', editedArgs: { command: 42 } }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^editedArgs do not fit the shell tool's parameters: command/),
    });
    await expect(
      api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve', editedArgs: { command: 'ls', extra: true } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'reject', editedArgs: { command: 'ls' } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: 'pending', editedArgs: null });

    await api.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve', editedArgs: { command: 'rm -rf build/tmp' } });
    expect((await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).editedArgs).toEqual({ command: 'rm -rf build/tmp' });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { targetId: approval.id, action: 'approval.approved' } });
    expect(audit.data).toMatchObject({ args: { command: 'rm -rf build' }, editedArgs: { command: 'rm -rf build/tmp' } });
    // The edited call was decided by the team's policy (the built-in default holds it for an approver).
    const decided = await tb.db.auditLog.findFirstOrThrow({ where: { targetId: approval.id, action: 'policy.decided' } });
    expect(decided.data).toMatchObject({
      edited: true,
      args: { command: 'rm -rf build/tmp' },
      outcome: 'require_approval',
      ruleId: 'shell-destructive',
      deciderRole: 'approver',
    });
  });
});

describe('approvals.decideMany', () => {
  it('decides each approval on its own and reports the ones it could not', async () => {
    const run = await runBy('operator');
    const [a, b, done] = [await pending(run), await pending(run), await pending(run, { status: 'expired' })];
    const result = await (await tb.as('approver')).approvals.decideMany({
      teamId: tb.fx.teamId,
      approvalIds: [a.id, b.id, done.id],
      decision: 'reject',
      comment: 'not today',
    });
    expect(result.decided).toBe(2);
    expect(result.results).toEqual([
      { approvalId: a.id, ok: true, status: 'rejected' },
      { approvalId: b.id, ok: true, status: 'rejected' },
      { approvalId: done.id, ok: false, error: 'The approval is already expired' },
    ]);
    expect(await tb.db.approval.count({ where: { id: { in: [a.id, b.id] }, status: 'rejected', comment: 'not today' } })).toBe(2);
  });

  it('decides the allowed ones in one go: rows, one audit row each in a sound chain, one wake-up per session; refusals named per id', async () => {
    const other = await runBy('operator');
    const mine = await runBy('approver');
    const [a, b] = [await pending(other), await pending(other)];
    const ownRun = await pending(mine, { fourEyes: true });
    const result = await (await tb.as('approver')).approvals.decideMany({
      teamId: tb.fx.teamId,
      approvalIds: [a.id, ownRun.id, 'nope-not-here', b.id, a.id],
      decision: 'approve',
    });
    expect(result.decided).toBe(2);
    expect(result.results).toEqual([
      { approvalId: a.id, ok: true, status: 'approved' },
      { approvalId: ownRun.id, ok: false, error: expect.stringContaining('You cannot decide this approval') },
      { approvalId: 'nope-not-here', ok: false, error: 'No such approval in this team' },
      { approvalId: b.id, ok: true, status: 'approved' },
    ]);
    const rows = await tb.db.approval.findMany({ where: { id: { in: [a.id, b.id, ownRun.id] } }, orderBy: { id: 'asc' } });
    expect(
      rows
        .filter((r) => r.status === 'approved')
        .map((r) => r.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(rows.every((r) => r.status === 'pending' || (r.decidedAt !== null && Math.abs(r.decidedAt.getTime() - Date.now()) < 60_000))).toBe(true);
    const audit = await tb.db.auditLog.findMany({ where: { teamId: tb.fx.teamId, action: 'approval.approved', targetId: { in: [a.id, b.id, ownRun.id] } } });
    expect(audit.map((r) => r.targetId).sort()).toEqual([a.id, b.id].sort());
    expect(await (await tb.as('admin')).audit.verify({ teamId: tb.fx.teamId })).toMatchObject({ ok: true });
    const wakes = (await tb.live.jobs()).filter((j) => j.sessionId === other.sessionId && j.reason === 'resume');
    expect(wakes.length).toBeGreaterThanOrEqual(1);
  });
});

describe('approvals.list and approvals.get', () => {
  it('lists pending first, newest first within each, and pages by keyset without gaps or repeats', async () => {
    const run = await runBy('operator');
    const old = await pending(run, { createdAt: new Date(Date.now() - 60_000) });
    const decided = await pending(run, { status: 'approved', decidedAt: new Date() });
    const fresh = await pending(run);
    const api = await tb.as('viewer');
    const all = await api.approvals.list({ teamId: tb.fx.teamId, runId: run.runId });
    expect(all.items.map((i) => i.id)).toEqual([fresh.id, old.id, decided.id]);
    expect(all.items[0]).toMatchObject({
      tool: 'shell',
      args: { command: 'rm -rf build' },
      risk: 'high',
      policyRuleId: 'shell-destructive',
      agent: { id: tb.agent.agentId },
      canDecide: false,
      blocker: 'deciding needs the approver role',
    });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.approvals.list({ teamId: tb.fx.teamId, runId: run.runId, limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([fresh.id, old.id, decided.id]);

    expect((await api.approvals.list({ teamId: tb.fx.teamId, runId: run.runId, status: 'approved' })).items.map((i) => i.id)).toEqual([decided.id]);
    expect(await (await tb.as('approver')).approvals.get({ teamId: tb.fx.teamId, approvalId: fresh.id })).toMatchObject({
      id: fresh.id,
      canDecide: true,
      blocker: null,
      requestedBy: { id: tb.fx.members.operator.id },
    });
    await expect(api.approvals.list({ teamId: tb.fx.teamId, cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
