import { describe, expect, it } from 'vitest';
import type { Prisma } from '@looplane/db';
import { ROLES, type Role } from '@looplane/shared';
import { appendEvents } from './testing/fixtures';
import { apiTestbed } from './testing/testbed';

/**
 * The authorization matrix's four-eyes cases: with `approvals.fourEyes`, an approval may be
 * decided by nobody whose instruction its call follows from — the run's creator, and the author
 * of a fork (`sessions.fork`) or of a message or a resume on its lineage, as the worker records
 * them on the row (`instructedByIds`; end to end with the real worker in
 * apps/worker/src/runtime/four-eyes.int.test.ts). Every way to decide is checked: decide,
 * decideMany, and the inbox's `canDecide`.
 */
const tb = apiTestbed({ agent: true });
let seq = 500;

/** An operator's run, forked by the approver with her own instruction; the approval of the branch's next call, as the worker opens it. */
async function forkedByApprover() {
  const { runId } = await (await tb.as('operator')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'Clean up' });
  const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true, createdById: true } });
  const main = await tb.db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
  await appendEvents(tb.db, runId, main.id, [{ type: 'run.started', payload: { goal: run.goal, config: main.config as Prisma.InputJsonValue } }]);
  const fork = await (await tb.as('approver')).sessions.fork({ teamId: tb.fx.teamId, sessionId: main.id, atEvent: 1, message: 'Delete the build directory.' });
  const branch = await tb.db.session.findUniqueOrThrow({ where: { id: fork.sessionId }, select: { createdById: true } });
  const requestSeq = seq++;
  const instructedByIds = [branch.createdById!, run.createdById!];
  const approval = await tb.db.approval.create({
    data: {
      teamId: tb.fx.teamId,
      runId,
      sessionId: fork.sessionId,
      requestSeq,
      toolCallId: `call-${requestSeq}`,
      tool: 'shell',
      args: { command: 'rm -rf build' },
      fourEyes: true,
      requestedById: instructedByIds[0],
      instructedByIds,
    },
  });
  return { approvalId: approval.id, instructedByIds };
}

describe('four-eyes by fork', () => {
  it('the fork records its author; the approval of the branch’s call is refused to her and to the run’s creator, for every way to decide', async () => {
    const { approvalId, instructedByIds } = await forkedByApprover();
    expect(instructedByIds).toEqual([tb.fx.members.approver.id, tb.fx.members.operator.id]);
    const approver = await tb.as('approver');
    await expect(approver.approvals.decide({ teamId: tb.fx.teamId, approvalId, decision: 'approve' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('four-eyes: the call follows from your own instruction'),
    });
    expect((await approver.approvals.decideMany({ teamId: tb.fx.teamId, approvalIds: [approvalId], decision: 'approve' })).results).toEqual([
      { approvalId, ok: false, error: expect.stringContaining('four-eyes') },
    ]);
    expect(await approver.approvals.get({ teamId: tb.fx.teamId, approvalId })).toMatchObject({
      canDecide: false,
      blocker: expect.stringContaining('four-eyes'),
    });
    expect((await tb.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
  });

  const cases: Array<[Role, 'ok' | 'FORBIDDEN']> = ROLES.map((role) => [role, role === 'admin' ? 'ok' : 'FORBIDDEN']);
  for (const [role, expected] of cases) {
    it(`as ${role}: ${expected === 'ok' ? 'a third person decides' : 'refused'}`, async () => {
      const { approvalId } = await forkedByApprover();
      const outcome = await (await tb.as(role)).approvals.decide({ teamId: tb.fx.teamId, approvalId, decision: 'approve' }).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
      expect(outcome).toBe(expected);
    });
  }
});
