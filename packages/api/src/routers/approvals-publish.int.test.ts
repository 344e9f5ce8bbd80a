import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';
import { filesFixture, type FilesFixture } from './sessions-files.fixtures';

/**
 * Approvals of a `publish_branch` call: the approver sees what would be pushed (the session's files
 * when the call asked, against the files the run was seeded with) and where (the seeded
 * repository and the branch the call names), read from the workspace store.
 */
const tb = apiTestbed({ agent: true });
let fx: FilesFixture;
const URL_OF_SEED = 'https://git.example.test/acme/app.git';

beforeAll(async () => {
  fx = await filesFixture(tb);
});
afterAll(async () => {
  await fx?.close();
});

/** A pending approval of `publish_branch` asked at the session's latest event. */
async function publishApproval(run: { runId: string; sessionId: string }, args: Record<string, string>, editedArgs?: Record<string, string>) {
  const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: run.sessionId }, select: { lastSeq: true } });
  return tb.db.approval.create({
    data: {
      teamId: tb.fx.teamId,
      runId: run.runId,
      sessionId: run.sessionId,
      requestSeq: lastSeq + 1,
      toolCallId: `call-publish-${lastSeq}`,
      tool: 'publish_branch',
      args,
      ...(editedArgs ? { editedArgs } : {}),
      policyRuleId: 'deliver-needs-approval',
    },
  });
}

describe('approvals.diff of publish_branch', () => {
  it('is the diff from the seeded files to the session’s files when it asked, and the push target', async () => {
    const run = await fx.newRun();
    await fx.seed(run.runId, run.sessionId, { 'src/app.ts': 'export const v = 1;\n', 'old.txt': 'old\n' }, { url: URL_OF_SEED, ref: 'main' });
    await fx.commit(run.runId, run.sessionId, { 'src/app.ts': 'export const v = 2;\n', 'old.txt': null });
    const approval = await publishApproval(run, { branch: 'fix/flaky-test', message: 'Fix the flaky test' });
    // A change after the request is not part of what the approved call pushes.
    await fx.commit(run.runId, run.sessionId, { 'later.txt': 'after the request\n' });

    const diff = await (await tb.as('viewer', fx.deps)).approvals.diff({ teamId: tb.fx.teamId, approvalId: approval.id });
    expect(diff).toMatchObject({ reason: null, truncated: false, held: null, target: { url: URL_OF_SEED, branch: 'fix/flaky-test' } });
    expect(diff.diff).toContain('-export const v = 1;');
    expect(diff.diff).toContain('+export const v = 2;');
    expect(diff.diff).toContain('deleted file mode 100644');
    expect(diff.diff).not.toContain('later.txt');
  });

  it('names the edited branch when the arguments were edited', async () => {
    const run = await fx.newRun();
    await fx.seed(run.runId, run.sessionId, { 'a.txt': 'a\n' }, { url: URL_OF_SEED });
    const approval = await publishApproval(run, { branch: 'wip', message: 'm' }, { branch: 'feature/renamed', message: 'm' });
    const diff = await (await tb.as('viewer', fx.deps)).approvals.diff({ teamId: tb.fx.teamId, approvalId: approval.id });
    // Nothing changed since the seed: an empty diff, still with its target.
    expect(diff).toMatchObject({ diff: '', reason: null, target: { url: URL_OF_SEED, branch: 'feature/renamed' } });
  });

  it('says why when the run did not start from a repository', async () => {
    const empty = await fx.newRun();
    const unseeded = await publishApproval(empty, { branch: 'x', message: 'm' });
    const viewer = await tb.as('viewer', fx.deps);
    expect(await viewer.approvals.diff({ teamId: tb.fx.teamId, approvalId: unseeded.id })).toMatchObject({
      diff: null,
      reason: expect.stringContaining('did not start from a repository'),
      target: { url: null, branch: 'x' },
    });
    const uploaded = await fx.newRun();
    await fx.seed(uploaded.runId, uploaded.sessionId, { 'a.txt': 'a\n' }, { source: 'archive', url: undefined, revision: undefined, uploadId: 'u1' });
    const fromUpload = await publishApproval(uploaded, { branch: 'x', message: 'm' });
    expect(await viewer.approvals.diff({ teamId: tb.fx.teamId, approvalId: fromUpload.id })).toMatchObject({
      diff: null,
      reason: 'this run started from an upload, not a repository',
    });
  });

  it('keeps the answer for other calls that have not run', async () => {
    const run = await fx.newRun();
    const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: run.sessionId }, select: { lastSeq: true } });
    const approval = await tb.db.approval.create({
      data: { teamId: tb.fx.teamId, runId: run.runId, sessionId: run.sessionId, requestSeq: lastSeq + 1, tool: 'shell', args: { command: 'ls' } },
    });
    expect(await (await tb.as('viewer', fx.deps)).approvals.diff({ teamId: tb.fx.teamId, approvalId: approval.id })).toMatchObject({
      diff: null,
      reason: expect.stringContaining('has not run'),
      target: null,
    });
  });
});
