import { createDbOnPool, type Prisma } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import type { ModelRequest } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs, TOOL_CALLS_TABLE } from '../testing/test-tools';
import { ApprovalSweeper } from './approval-sweeper';

/**
 * Durable approval gates end to end, with the real runtime: a call the team's policy holds for
 * approval parks the run (no job, no lease, no slot), and what the approvals API and the sweeper
 * write to the `Approval` row (plus a wake-up) is what resumes it, on a clock the test moves.
 */

const HOUR = 3_600_000;
let offset = 0;
const clock = { now: () => Date.now() + offset };
const requests: ModelRequest[] = [];
const s = setUpRuntimeSuite('approval', {
  clock,
  // The runtime's own sweeper stays out of the way: the tests sweep when they move the clock.
  approvalSweepIntervalMs: HOUR,
  // Every model request is kept, to see what the model was told.
  createModel: (endpoint, key) => {
    const port = createModelForEndpoint(endpoint, key);
    return {
      complete: (request, options) => {
        requests.push(request);
        return port.complete(request, options);
      },
    };
  },
});
const config = { tools: testToolSpecs, toolLoading: 'eager' as const };

/** A policy that holds `record` and `echo` for an approver and allows the rest. */
function policy(approvals: Record<string, unknown> = {}) {
  return {
    version: 1,
    default: 'allow',
    rules: [
      { id: 'hold-record', match: { tool: 'record' }, outcome: 'require_approval', reason: 'record writes outside the log', risk: 'high' },
      { id: 'hold-echo', match: { tool: 'echo' }, outcome: 'require_approval', risk: 'low' },
    ],
    approvals: { expiresAfterMinutes: 180, ...approvals },
  };
}

async function startRun(script: unknown[], approvals: Record<string, unknown> = {}) {
  const teamId = await createTestTeam(s.t.db, { policy: policy(approvals) });
  const agent = await createTestAgent(s.t.db, teamId, { script: script as never });
  const creator = await s.t.db.user.create({ data: { email: `creator-${Math.random().toString(36).slice(2)}@example.test` } });
  const run = await createTestRun(s.t.db, agent, { config });
  await s.t.db.run.update({ where: { id: run.runId }, data: { createdById: creator.id } });
  await s.client.follow(teamId);
  await s.client.enqueue({ ...run, reason: 'start' });
  await waitForRun(s.t.db, run.runId, 'waiting');
  const approval = await waitFor(
    () => s.t.db.approval.findFirst({ where: { runId: run.runId, status: 'pending' } }).then((a) => a ?? undefined),
    10_000,
    'the approval row',
  );
  return { ...run, teamId, agent, creator, approval };
}

/** What `approvals.decide` writes, then its wake-up; the decider is an approver of the team (edited calls are decided again by the worker, for that role). */
async function decide(
  run: { runId: string; sessionId: string },
  approvalId: string,
  data: { status: 'approved' | 'rejected'; comment?: string; editedArgs?: Record<string, unknown> },
) {
  const approver = await s.t.db.user.create({ data: { email: `approver-${Math.random().toString(36).slice(2)}@example.test` } });
  const { teamId } = await s.t.db.approval.findUniqueOrThrow({ where: { id: approvalId }, select: { teamId: true } });
  await s.t.db.membership.create({ data: { teamId, userId: approver.id, role: 'approver' } });
  await s.t.db.approval.update({
    where: { id: approvalId },
    data: {
      status: data.status,
      decidedById: approver.id,
      decidedAt: new Date(),
      comment: data.comment ?? null,
      ...(data.editedArgs ? { editedArgs: data.editedArgs as Prisma.InputJsonValue } : {}),
    },
  });
  await s.client.enqueue({ ...run, reason: 'resume' });
  return approver;
}

async function executions(runId: string): Promise<number> {
  return (await s.worker.pool.query(`SELECT 1 FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [runId])).rowCount ?? 0;
}

function sweeper() {
  const db = createDbOnPool(s.worker.pool);
  const gate = { publishCount: async () => undefined };
  return new ApprovalSweeper({
    db,
    clock,
    gate: gate as never,
    enqueue: (job) => s.client.enqueue(job),
    intervalMs: 60_000,
    logger: pino({ level: 'silent' }),
  });
}

const recordThenFinish = [{ calls: [{ tool: 'record', args: {} }] }, { finish: 'done' }];

describe('allowed calls', () => {
  it('every allowed call has its policy.decided audit row, written before the call ran', async () => {
    const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', rules: [] } });
    const script = [
      {
        calls: [
          { tool: 'record', args: {} },
          { tool: 'record', args: {} },
        ],
      },
      { calls: [{ tool: 'record', args: {} }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(s.t.db, teamId, { script: script as never });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.follow(teamId);
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId, 'succeeded')).status).toBe('succeeded');
    const ran = (await s.worker.pool.query(`SELECT call_id, at FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId])).rows as Array<{
      call_id: string;
      at: Date;
    }>;
    expect(ran).toHaveLength(3);
    const rows = await s.t.db.auditLog.findMany({ where: { teamId, action: 'policy.decided', targetId: run.runId } });
    for (const call of ran) {
      const row = rows.find((r) => (r.data as { callId?: string }).callId === call.call_id);
      expect(row?.data).toMatchObject({ outcome: 'allow', tool: 'record' });
      // Stamped before the tool ran (the tool port also waits for the row's commit before the side effect).
      expect(row!.createdAt.getTime()).toBeLessThanOrEqual(call.at.getTime());
    }
  });

  it('an idempotent call, which need not wait for its events to commit, still runs only once its audit row is committed', async () => {
    const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow', rules: [] } });
    const script = [
      {
        calls: [
          { tool: 'audited', args: {} },
          { tool: 'audited', args: {} },
        ],
      },
      { calls: [{ tool: 'audited', args: {} }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(s.t.db, teamId, { script: script as never });
    const run = await createTestRun(s.t.db, agent, { config });
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId, 'succeeded')).status).toBe('succeeded');
    const ran = (await s.worker.pool.query(`SELECT tool FROM ${TOOL_CALLS_TABLE} WHERE run_id = $1`, [run.runId])).rows as Array<{ tool: string }>;
    // Each call saw exactly one committed row with its decision.
    expect(ran.map((r) => r.tool)).toEqual(['audited:1', 'audited:1', 'audited:1']);
  });
});

describe('approval gates', () => {
  it('parks a held call without holding a worker, survives an hour of waiting, and runs it once approved', async () => {
    const run = await startRun(recordThenFinish);
    const { approval } = run;
    expect(approval).toMatchObject({
      kind: 'tool',
      tool: 'record',
      args: {},
      risk: 'high',
      policyRuleId: 'hold-record',
      requiredRole: 'approver',
      requestedById: run.creator.id,
      fourEyes: false,
      expiryOutcome: 'reject',
    });
    const requested = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'approval.requested' } });
    expect(approval.requestSeq).toBe(requested.seq);
    expect(approval.toolCallId).toBe((requested.payload as { callId: string }).callId);
    expect(approval.expiresAt!.getTime() - approval.createdAt.getTime()).toBe(3 * HOUR);
    // Waiting holds nothing: no lease, no job, no loop on the worker.
    expect(await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).toMatchObject({
      status: 'waiting',
      waitReason: 'approval',
      leaseOwner: null,
    });
    expect(await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({ status: 'waiting', waitReason: 'approval' });
    expect(s.worker.runtime.activeSessions).toBe(0);
    expect(await s.client.queue.getActiveCount()).toBe(0);
    expect(await executions(run.runId)).toBe(0);
    // The decision is in the timeline and in the team's audit chain; the dashboards got the count.
    expect(await s.t.db.event.findFirst({ where: { runId: run.runId, type: 'policy.decided' } })).toMatchObject({
      payload: { decision: 'require_approval', ruleId: 'hold-record', role: 'approver' },
    });
    const audit = await s.t.db.auditLog.findMany({ where: { teamId: run.teamId, action: 'policy.decided' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorType: 'system',
      actorId: `run:${run.runId}`,
      targetId: run.runId,
      data: { tool: 'record', outcome: 'require_approval', ruleId: 'hold-record' },
    });
    await waitFor(() => s.client.activity.some((a) => a.kind === 'approvals.count' && a.pending === 1), 5000, 'the pending count');

    // An hour later (not yet expired), a sweep and a spurious wake-up change nothing.
    offset += HOUR;
    expect(await sweeper().pass()).toEqual({ escalated: 0, expired: 0, cancelled: 0 });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'resume' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status).toBe('waiting');
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'approval.requested' } })).toBe(1);

    const approver = await decide(run, approval.id, { status: 'approved' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    expect(await executions(run.runId)).toBe(1);
    const decided = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'approval.decided' } });
    expect(decided.payload).toMatchObject({ approved: true, by: approver.email });
    expect(await s.t.db.approval.count({ where: { runId: run.runId } })).toBe(1);
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  });

  it('tells the model why a call was rejected, and does not run it', async () => {
    const run = await startRun(recordThenFinish);
    await decide(run, run.approval.id, { status: 'rejected', comment: 'not on a Friday' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    expect(await executions(run.runId)).toBe(0);
    const told = requests.some((r) =>
      r.messages.some((m) => m.role === 'tool' && m.content.includes('Rejected by an approver') && m.content.includes('not on a Friday')),
    );
    expect(told).toBe(true);
  });

  it("runs the arguments an approver edited, not the model's", async () => {
    const run = await startRun([{ calls: [{ tool: 'echo', args: { text: 'rm -rf /' } }] }, { finish: 'done' }]);
    expect(run.approval.args).toEqual({ text: 'rm -rf /' });
    await decide(run, run.approval.id, { status: 'approved', editedArgs: { text: 'rm -rf ./build' } });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
    const started = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'tool.started' } });
    expect(started.payload).toMatchObject({ name: 'echo', args: { text: 'rm -rf ./build' } });
    const finished = await s.t.db.event.findFirstOrThrow({ where: { runId: run.runId, type: 'tool.finished' } });
    expect(finished.payload).toMatchObject({ ok: true, output: 'rm -rf ./build' });
  });

  it("applies the policy's expiry outcome: approve runs the call, fail fails the run", async () => {
    const approving = await startRun(recordThenFinish, { expiresAfterMinutes: 60, expiryOutcome: 'approve' });
    const failing = await startRun(recordThenFinish, { expiresAfterMinutes: 60, expiryOutcome: 'fail' });
    offset += 61 * 60_000;
    expect((await sweeper().pass()).expired).toBe(2);
    expect((await waitForRun(s.t.db, approving.runId)).status).toBe('succeeded');
    expect(await executions(approving.runId)).toBe(1);
    expect(await s.t.db.approval.findUniqueOrThrow({ where: { id: approving.approval.id } })).toMatchObject({ status: 'expired' });
    const failed = await waitForRun(s.t.db, failing.runId);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('the approval expired') });
    expect(await executions(failing.runId)).toBe(0);
    expect(await s.t.db.auditLog.count({ where: { teamId: approving.teamId, action: 'approval.expired', targetId: approving.approval.id } })).toBe(1);
    // A second sweeper (another worker) finds nothing left to do.
    expect((await sweeper().pass()).expired).toBe(0);
  });

  it('escalates a pending approval to another role after the delay, once, and records it', async () => {
    const run = await startRun(recordThenFinish, { escalateAfterMinutes: 10, escalateToRole: 'admin', fourEyes: true });
    expect(run.approval).toMatchObject({ requiredRole: 'approver', escalateToRole: 'admin', fourEyes: true, requestedById: run.creator.id });
    expect(run.approval.escalateAt!.getTime() - run.approval.createdAt.getTime()).toBe(10 * 60_000);
    offset += 11 * 60_000;
    const [first, second] = await Promise.all([sweeper().pass(), sweeper().pass()]);
    expect(first.escalated + second.escalated).toBe(1);
    expect(await s.t.db.approval.findUniqueOrThrow({ where: { id: run.approval.id } })).toMatchObject({
      status: 'pending',
      requiredRole: 'admin',
      escalateAt: null,
    });
    expect(await s.t.db.auditLog.count({ where: { teamId: run.teamId, action: 'approval.escalated' } })).toBe(1);
    expect((await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).status).toBe('waiting');
    await decide(run, run.approval.id, { status: 'approved' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');
  });

  it('closes the pending approval of a run cancelled while it waited', async () => {
    const run = await startRun(recordThenFinish);
    await s.t.db.run.update({ where: { id: run.runId }, data: { cancelRequestedAt: new Date() } });
    await s.client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'cancel' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('cancelled');
    expect((await sweeper().pass()).cancelled).toBe(1);
    expect(await s.t.db.approval.findUniqueOrThrow({ where: { id: run.approval.id } })).toMatchObject({ status: 'cancelled' });
  });
});
