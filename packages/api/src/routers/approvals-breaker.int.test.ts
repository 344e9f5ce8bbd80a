import { describe, expect, it } from 'vitest';
import { appendAudit, verifyTeamAudit, type Prisma } from '@looplane/db';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });
let seq = 100;

/** A run waiting on a breaker approval, as the worker opens one. */
async function breakerPaused() {
  const { runId } = await (await tb.as('operator')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'Loop' });
  const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
  await tb.db.session.update({ where: { id: run.mainSessionId! }, data: { status: 'waiting', waitReason: 'approval' } });
  const requestSeq = seq++;
  const approval = await tb.db.approval.create({
    data: {
      teamId: tb.fx.teamId,
      runId,
      sessionId: run.mainSessionId!,
      requestSeq,
      toolCallId: `call-${requestSeq}`,
      tool: 'echo',
      kind: 'breaker',
      args: { text: 'again' } as Prisma.InputJsonValue,
    },
  });
  return { runId, approvalId: approval.id };
}

/**
 * A cancel of the run in flight, in the order `runs.cancel` (and resumes and forks) take their
 * locks: the Run row first, the team's audit lock last. It holds the Run row until `go` resolves.
 */
async function cancelHoldingTheRun(runId: string, locked: () => void, go: Promise<void>) {
  await tb.db.$transaction(
    async (tx) => {
      await tx.run.updateMany({
        where: { id: runId, cancelRequestedAt: null },
        data: { cancelRequestedAt: new Date(), cancelledById: tb.fx.members.operator.id },
      });
      locked();
      await go;
      await appendAudit(tx, {
        teamId: tb.fx.teamId,
        actor: { type: 'user', userId: tb.fx.members.operator.id },
        ip: null,
        action: 'run.cancel_requested',
        targetType: 'run',
        targetId: runId,
        data: { status: 'waiting' },
      });
    },
    { timeout: 20_000 },
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('rejecting a breaker while the run is being cancelled', () => {
  // Before the fix the rejection took the audit lock, then waited for the Run row the cancel held,
  // while the cancel waited for the audit lock: Postgres aborted one of them as a deadlock.
  for (const how of ['decide', 'decideMany'] as const) {
    it(`${how}: the Run row before the audit lock, so both finish; the cancel is recorded once`, async () => {
      const { runId, approvalId } = await breakerPaused();
      let release!: () => void;
      const go = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const cancel = cancelHoldingTheRun(runId, locked, go);
      await isLocked;
      const approver = await tb.as('approver');
      const rejecting =
        how === 'decide'
          ? approver.approvals.decide({ teamId: tb.fx.teamId, approvalId, decision: 'reject', comment: 'looping' })
          : approver.approvals.decideMany({ teamId: tb.fx.teamId, approvalIds: [approvalId], decision: 'reject', comment: 'looping' });
      // Let the rejection get as far as it can while the cancel holds the Run row, then let the cancel go on.
      await sleep(400);
      release();
      const [cancelled, rejected] = await Promise.allSettled([cancel, rejecting]);
      expect(cancelled.status).toBe('fulfilled');
      expect(rejected).toMatchObject({ status: 'fulfilled' });
      expect((await tb.db.approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('rejected');
      // The cancel asked first; the rejection found the run already asked and recorded no second request.
      expect(await tb.db.auditLog.count({ where: { teamId: tb.fx.teamId, action: 'run.cancel_requested', targetId: runId } })).toBe(1);
      expect(await tb.db.auditLog.count({ where: { teamId: tb.fx.teamId, action: 'approval.rejected', targetId: approvalId } })).toBe(1);
      expect((await verifyTeamAudit(tb.db, tb.fx.teamId)).ok).toBe(true);
    });
  }

  it('decide: a rejection alone marks the run and records approval.rejected, then run.cancel_requested', async () => {
    const { runId, approvalId } = await breakerPaused();
    const result = await (await tb.as('approver')).approvals.decide({ teamId: tb.fx.teamId, approvalId, decision: 'reject' });
    expect(result).toMatchObject({ status: 'rejected' });
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).cancelRequestedAt).not.toBeNull();
    const rows = await tb.db.auditLog.findMany({
      where: { teamId: tb.fx.teamId, OR: [{ targetId: runId }, { targetId: approvalId }] },
      orderBy: { seq: 'asc' },
    });
    expect(rows.map((r) => r.action).slice(-2)).toEqual(['approval.rejected', 'run.cancel_requested']);
    expect(rows.at(-1)!.data).toMatchObject({ approvalId, reason: 'breaker rejected' });
  });
});
