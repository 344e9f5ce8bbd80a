import type { TeamActivity } from '@looplane/queue';
import { describe, expect, it } from 'vitest';
import { problemOf } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { messageSent } from '../rest/schemas/runs.schemas';

/**
 * A message to a finished run (runs.sendMessage, `POST /runs/{runId}/messages`) continues it on
 * its main session; a cancelled run refuses it. The worker's side (it runs again, on the same
 * session and budget) is in apps/worker/src/runtime/continue-run.int.test.ts.
 */
const rest = restTestbed();
const tb = rest.tb;

async function finishedRun(status: 'succeeded' | 'failed' | 'cancelled') {
  const api = await tb.as('operator');
  const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: `finish ${status}` });
  const finishedAt = new Date();
  const outcome = status === 'succeeded' ? { result: 'the first answer', error: null } : { result: null, error: `it ${status}` };
  const run = await tb.db.run.update({ where: { id: runId }, data: { status, finishedAt, ...outcome } });
  await tb.db.session.update({ where: { id: run.mainSessionId! }, data: { status, finishedAt, ...outcome } });
  return { runId, sessionId: run.mainSessionId! };
}

const jobsFor = async (runId: string) => (await tb.live.jobs()).filter((job) => job.runId === runId).map((job) => job.reason);
const auditOf = (runId: string) => tb.db.auditLog.findMany({ where: { targetId: runId }, orderBy: { seq: 'asc' } });

describe('a message to a finished run', () => {
  it.each(['succeeded', 'failed'] as const)('reopens a %s run on its main session: queued, result cleared, woken, announced and audited', async (status) => {
    const { runId, sessionId } = await finishedRun(status);
    const heard: TeamActivity[] = [];
    const stop = await tb.live.bus.onTeamActivity(tb.fx.teamId, (message) => heard.push(message));
    const api = await tb.as('operator');
    const sent = await api.runs.sendMessage({ teamId: tb.fx.teamId, runId, text: 'One more thing' });
    expect(sent.delivered).toBe('wake');

    expect(await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'queued',
      waitReason: null,
      result: null,
      error: null,
      finishedAt: null,
      mainSessionId: sessionId,
    });
    expect(await tb.db.session.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: 'idle', result: null, error: null, finishedAt: null });
    // No new session: the run continues on its main line.
    expect(await tb.db.session.count({ where: { runId } })).toBe(1);
    expect(await tb.db.inboxMessage.findUniqueOrThrow({ where: { id: sent.messageId } })).toMatchObject({
      sessionId,
      text: 'One more thing',
      consumedAt: null,
    });
    expect(await jobsFor(runId)).toEqual(['start', 'resume']);
    const audit = await auditOf(runId);
    expect(audit.map((a) => a.action)).toEqual(['run.created', 'run.message_sent']);
    expect(audit[1]!.data).toMatchObject({ inboxMessageId: sent.messageId, runStatus: status, continued: true });
    await expect.poll(() => heard.some((a) => a.kind === 'run.status' && a.runId === runId && a.status === 'queued'), { timeout: 5000 }).toBe(true);
    await stop();
  });

  it('two messages racing to a finished run reopen it once and are both delivered, in the order they were recorded', async () => {
    let raced = 0;
    for (let round = 0; round < 5; round++) {
      const { runId, sessionId } = await finishedRun('succeeded');
      const api = await tb.as('operator');
      const sent = await Promise.all(['first', 'second'].map((text) => api.runs.sendMessage({ teamId: tb.fx.teamId, runId, text })));
      expect(sent.map((s) => s.delivered)).toEqual(['wake', 'wake']);
      expect(await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'queued' });
      expect(await tb.db.session.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ status: 'idle' });
      const audit = (await auditOf(runId)).filter((a) => a.action === 'run.message_sent');
      expect(audit.filter((a) => (a.data as { continued?: boolean }).continued)).toHaveLength(1);
      // Both saw it finished (neither had committed): the race was real, and the lock decided it.
      if (audit.every((a) => (a.data as { runStatus: string }).runStatus === 'succeeded')) raced++;
      // The inbox's order (what the worker appends in) is the order the messages were recorded in.
      const inbox = await tb.db.inboxMessage.findMany({ where: { runId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      expect(inbox.map((m) => m.id)).toEqual(audit.map((a) => (a.data as { inboxMessageId: string }).inboxMessageId));
      expect((await jobsFor(runId)).sort()).toEqual(['message', 'resume', 'start']);
    }
    expect(raced).toBeGreaterThan(0);
  });

  it('a finished run whose cancel request lost to the finish continues without it', async () => {
    const { runId } = await finishedRun('succeeded');
    await tb.db.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date(), cancelledById: tb.fx.members.operator.id } });
    await (await tb.as('operator')).runs.sendMessage({ teamId: tb.fx.teamId, runId, text: 'go on' });
    expect(await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'queued', cancelRequestedAt: null, cancelledById: null });
  });

  it('a cancelled run refuses the message (412) and nothing changes', async () => {
    const { runId, sessionId } = await finishedRun('cancelled');
    const before = {
      run: await tb.db.run.findUniqueOrThrow({ where: { id: runId } }),
      session: await tb.db.session.findUniqueOrThrow({ where: { id: sessionId } }),
      jobs: await jobsFor(runId),
      audit: (await auditOf(runId)).length,
    };
    await expect((await tb.as('operator')).runs.sendMessage({ teamId: tb.fx.teamId, runId, text: 'wake up' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'A cancelled run cannot take messages; fork or resume its session',
    });
    const reply = await rest.as('operator').call('sendRunMessage', { params: { runId }, body: { text: 'wake up' } });
    expect(problemOf(reply, 412, 'PRECONDITION_FAILED').detail).toBe('A cancelled run cannot take messages; fork or resume its session');
    expect(await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).toEqual(before.run);
    expect(await tb.db.session.findUniqueOrThrow({ where: { id: sessionId } })).toEqual(before.session);
    expect(await tb.db.inboxMessage.count({ where: { runId } })).toBe(0);
    expect(await jobsFor(runId)).toEqual(before.jobs);
    expect((await auditOf(runId)).length).toBe(before.audit);
  });

  it('over REST: 201 delivered wake, and the run is queued again', async () => {
    const { runId } = await finishedRun('succeeded');
    const sent = await rest.as('operator').ok('sendRunMessage', messageSent, { params: { runId }, body: { text: 'And the docs?' } });
    expect(sent.delivered).toBe('wake');
    expect((await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('queued');
  });
});
