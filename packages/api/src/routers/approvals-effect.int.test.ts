import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';
import { filesFixture, type FilesFixture } from './sessions-files.fixtures';

/**
 * Approvals of a held result (kind effect): the call ran on some worker, its changes were rolled
 * back and stored as a commit; the inbox shows what it changed, read from the workspace store.
 */
const tb = apiTestbed({ agent: true });
let fx: FilesFixture;
let run: { runId: string; sessionId: string };
let base: string;
let held: string;

beforeAll(async () => {
  fx = await filesFixture(tb);
  run = await fx.newRun();
  base = (await fx.commit(run.runId, run.sessionId, { 'build/out.o': 'object code\n', 'notes.md': 'important notes\n' })).commit;
  // What the call made of the workspace: its result is stored, the session stays at `base`.
  held = (await fx.commit(run.runId, run.sessionId, { 'build/out.o': null, 'notes.md': '' })).commit;
});

afterAll(async () => {
  await fx?.close();
});

async function heldApproval() {
  const effect = {
    changes: [
      { path: 'build/out.o', kind: 'deleted', oldBytes: 12, newBytes: null },
      { path: 'notes.md', kind: 'truncated', oldBytes: 16, newBytes: 0 },
    ],
    truncatedList: false,
    counts: { added: 0, modified: 0, truncated: 1, deleted: 1, moved: 0 },
  };
  return tb.db.approval.create({
    data: {
      teamId: tb.fx.teamId,
      runId: run.runId,
      sessionId: run.sessionId,
      requestSeq: 1000 + Math.floor(Math.random() * 1e6),
      toolCallId: 'call-held',
      kind: 'effect',
      tool: 'shell',
      args: { command: 'python3 clean.py' },
      risk: 'high',
      policyRuleId: 'effect-deletes',
      held: { commit: held, baseCommit: base, effect },
    },
  });
}

describe('approvals of held results', () => {
  it('lists the held effect and serves its diff from the store', async () => {
    const approval = await heldApproval();
    const viewer = await tb.as('viewer', fx.deps);
    const item = await viewer.approvals.get({ teamId: tb.fx.teamId, approvalId: approval.id });
    expect(item).toMatchObject({ kind: 'effect', held: { commit: held, baseCommit: base, effect: { counts: { deleted: 1, truncated: 1 } } } });
    const { items } = await viewer.approvals.list({ teamId: tb.fx.teamId, status: 'pending' });
    expect(items.find((i) => i.id === approval.id)?.held?.commit).toBe(held);
    const diff = await viewer.approvals.diff({ teamId: tb.fx.teamId, approvalId: approval.id });
    expect(diff.reason).toBeNull();
    expect(diff.diff).toContain('deleted file mode 100644');
    expect(diff.diff).toContain('-object code');
    expect(diff.diff).toContain('-important notes');
  });

  it('says why a call that has not run has no diff, and answers NOT_FOUND for another team', async () => {
    const approval = await tb.db.approval.create({
      data: {
        teamId: tb.fx.teamId,
        runId: run.runId,
        sessionId: run.sessionId,
        requestSeq: 2_000_000 + Math.floor(Math.random() * 1e6),
        toolCallId: 'c2',
        tool: 'shell',
        args: { command: 'rm -rf build' },
      },
    });
    const viewer = await tb.as('viewer', fx.deps);
    expect(await viewer.approvals.diff({ teamId: tb.fx.teamId, approvalId: approval.id })).toMatchObject({
      diff: null,
      reason: expect.stringContaining('has not run'),
    });
    const outsider = await tb.as('viewer', fx.deps);
    await expect(outsider.approvals.diff({ teamId: tb.fx.otherTeamId, approvalId: approval.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses edited arguments for a held result, changing nothing', async () => {
    const approval = await heldApproval();
    const approver = await tb.as('approver', fx.deps);
    await expect(
      approver.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve', editedArgs: { command: 'true' } }),
    ).rejects.toThrow(/already ran/);
    expect(await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: 'pending', editedArgs: null });
    await approver.approvals.decide({ teamId: tb.fx.teamId, approvalId: approval.id, decision: 'approve' });
    expect(await tb.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: 'approved' });
  });
});
