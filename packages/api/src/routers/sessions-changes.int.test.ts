import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { filesFixture, type FilesFixture } from './sessions-files.fixtures';

/**
 * `sessions.changes` and `sessions.callDiff` over a real Postgres workspace store: the calls of a
 * log that changed files, each with the commit it started from, and the diff each one made,
 * through a fork.
 */
const tb = apiTestbed({ agent: true });
let fx: FilesFixture;
let runId: string;
let main: string;
let first: { commit: string; seq: number };
let second: { commit: string; seq: number };

beforeAll(async () => {
  fx = await filesFixture(tb);
  ({ runId, sessionId: main } = await fx.newRun());
  first = await fx.commit(runId, main, { 'notes/plan.md': '- part 1: todo\n- part 2: todo\n' });
  second = await fx.commit(runId, main, { 'notes/plan.md': '- part 1: done\n- part 2: todo\n', 'notes/log.txt': 'one\n' });
});
afterAll(async () => {
  await fx?.close();
});

const viewer = () => tb.as('viewer', fx.deps);

describe('sessions.changes', () => {
  it('lists the calls that committed, oldest first, each with its base, request and tool', async () => {
    const view = await (await viewer()).sessions.changes({ teamId: tb.fx.teamId, sessionId: main });
    expect(view).toMatchObject({ sessionId: main, runId, more: 0 });
    expect(view.changes).toEqual([
      {
        kind: 'call',
        seq: first.seq,
        requestedSeq: first.seq - 2,
        callId: expect.any(String),
        tool: 'write_files',
        args: { paths: ['notes/plan.md'] },
        restoredFrom: null,
        paths: null,
        commit: first.commit,
        baseCommit: null,
      },
      {
        kind: 'call',
        seq: second.seq,
        requestedSeq: second.seq - 2,
        callId: expect.any(String),
        tool: 'write_files',
        args: { paths: ['notes/plan.md', 'notes/log.txt'] },
        restoredFrom: null,
        paths: null,
        commit: second.commit,
        baseCommit: first.commit,
      },
    ]);
  });

  it('lists a restore as a change, its files are the branch’s from then on, and its diff undoes what came after', async () => {
    const other = await fx.newRun();
    const early = await fx.commit(other.runId, other.sessionId, { 'a.txt': 'a1\n' });
    const late = await fx.commit(other.runId, other.sessionId, { 'a.txt': 'a2\n', 'b.txt': 'b\n' });
    // As the worker records a whole-workspace restore to the first call's event (here its commit is that call's).
    await appendEvents(tb.db, other.runId, other.sessionId, [
      { type: 'workspace.restored', payload: { requestId: 'req-r', atEvent: early.seq, commit: early.commit, requestedBy: tb.fx.members.operator.id } },
    ]);
    const api = await viewer();
    const view = await api.sessions.changes({ teamId: tb.fx.teamId, sessionId: other.sessionId });
    expect(view.changes.map((c) => [c.kind, c.seq, c.commit, c.baseCommit, c.restoredFrom, c.callId])).toEqual([
      ['call', early.seq, early.commit, null, null, expect.any(String)],
      ['call', late.seq, late.commit, early.commit, null, expect.any(String)],
      ['restore', late.seq + 1, early.commit, late.commit, early.seq, null],
    ]);
    const files = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: other.sessionId });
    expect(files).toMatchObject({ atEvent: late.seq + 1, commit: early.commit });
    expect(files.node.kind === 'dir' && files.node.entries.map((e) => e.path)).toEqual(['a.txt']);
    const diff = await api.sessions.callDiff({ teamId: tb.fx.teamId, sessionId: other.sessionId, atEvent: late.seq + 1 });
    expect(diff).toMatchObject({ callId: null, commit: early.commit, baseCommit: late.commit });
    expect(diff.diff).toContain('-a2');
    expect(diff.diff).toContain('+a1');
    expect(diff.diff).toContain('--- a/b.txt');
  });

  it('leaves out a call that recorded the commit it started from (it changed nothing)', async () => {
    const other = await fx.newRun();
    const made = await fx.commit(other.runId, other.sessionId, { 'a.txt': 'a\n' });
    const args = { command: 'cat a.txt' };
    await appendEvents(tb.db, other.runId, other.sessionId, [
      { type: 'tool.requested', payload: { callId: 'call-cat', requestId: 'req-cat', name: 'shell', args } },
      { type: 'tool.started', payload: { callId: 'call-cat', name: 'shell', args, attempt: 1 } },
      { type: 'tool.finished', payload: { callId: 'call-cat', ok: true, output: 'a', truncated: false, commit: made.commit } },
    ]);
    const view = await (await viewer()).sessions.changes({ teamId: tb.fx.teamId, sessionId: other.sessionId });
    expect(view.changes.map((c) => c.seq)).toEqual([made.seq]);
    expect(view.more).toBe(0);
  });

  it('a fork lists its parent’s calls up to the fork point, then its own', async () => {
    const fork = await (await tb.as('operator', fx.deps)).sessions.fork({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq });
    const own = await fx.commit(runId, fork.sessionId, { 'BRANCH.md': 'b\n' }, first.commit);
    const view = await (await viewer()).sessions.changes({ teamId: tb.fx.teamId, sessionId: fork.sessionId });
    expect(view.changes.map((c) => [c.seq, c.commit, c.baseCommit])).toEqual([
      [first.seq, first.commit, null],
      [own.seq, own.commit, first.commit],
    ]);
    const diff = await (await viewer()).sessions.callDiff({ teamId: tb.fx.teamId, sessionId: fork.sessionId, atEvent: own.seq });
    expect(diff.diff).toContain('+++ b/BRANCH.md');
    expect(diff.diff).not.toContain('notes/log.txt');
  });
});

describe('sessions.callDiff', () => {
  it('the first call’s diff adds its file to the empty workspace', async () => {
    const diff = await (await viewer()).sessions.callDiff({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq });
    expect(diff).toMatchObject({ sessionId: main, atEvent: first.seq, commit: first.commit, baseCommit: null, truncated: false, reason: null });
    expect(diff.diff).toContain('--- /dev/null');
    expect(diff.diff).toContain('+++ b/notes/plan.md');
    expect(diff.diff).toContain('+- part 1: todo');
  });

  it('a later call’s diff holds only what it changed', async () => {
    const diff = await (await viewer()).sessions.callDiff({ teamId: tb.fx.teamId, sessionId: main, atEvent: second.seq });
    expect(diff).toMatchObject({ commit: second.commit, baseCommit: first.commit });
    expect(diff.diff).toContain('-- part 1: todo');
    expect(diff.diff).toContain('+- part 1: done');
    expect(diff.diff).toContain('+++ b/notes/log.txt');
    expect(diff.diff).not.toContain('part 2: todo\n+');
  });

  it('refuses an event that is not a committing tool.finished, and one past the log', async () => {
    const api = await viewer();
    await expect(api.sessions.callDiff({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq - 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: `Event #${first.seq - 1} is not the end of a tool call that changed files, nor a restore (a tool.finished or workspace.restored with a workspace commit)`,
    });
    await expect(api.sessions.callDiff({ teamId: tb.fx.teamId, sessionId: main, atEvent: 10_000 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('atEvent must be between 1 and'),
    });
  });

  it('without a workspace reader: no diff, with the reason', async () => {
    const api = await tb.as('viewer', { ...fx.deps, workspaces: null });
    const diff = await api.sessions.callDiff({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq });
    expect(diff).toMatchObject({ commit: first.commit, diff: null, reason: expect.stringContaining('no workspace store configured') });
  });
});
