import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../services/sessions-files.service';
import { apiTestbed } from '../testing/testbed';
import { filesFixture, type FilesFixture } from './sessions-files.fixtures';

/**
 * `sessions.files` and `sessions.diff` over a real Postgres workspace store: commits are stored
 * as the worker stores them, then read back at events of the log, through forks.
 */
const tb = apiTestbed({ agent: true });
let fx: FilesFixture;
let runId: string;
let main: string;
/** Commits of the main session and the seq of the `tool.finished` that named each. */
let first: { commit: string; seq: number };
let second: { commit: string; seq: number };
const big = randomBytes(MAX_FILE_BYTES + 4096);

beforeAll(async () => {
  fx = await filesFixture(tb);
  ({ runId, sessionId: main } = await fx.newRun());
  first = await fx.commit(runId, main, { 'README.md': '# demo\n', 'src/app.ts': 'export const v = 1;\n' });
  second = await fx.commit(runId, main, { 'src/app.ts': 'export const v = 2;\n', 'src/new.ts': 'new\n', 'assets/big.bin': big });
});
afterAll(async () => {
  await fx?.close();
});

const viewer = () => tb.as('viewer', fx.deps);

describe('sessions.files', () => {
  it('lists the root at the latest event: directories first, with sizes', async () => {
    const api = await viewer();
    const view = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main });
    expect(view).toMatchObject({ runId, sessionId: main, atEvent: second.seq, commit: second.commit });
    expect(view.node).toEqual({
      kind: 'dir',
      path: '',
      entries: [
        { name: 'assets', path: 'assets', type: 'dir', size: null },
        { name: 'src', path: 'src', type: 'dir', size: null },
        { name: 'README.md', path: 'README.md', type: 'file', size: 7 },
      ],
    });
    const src = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, path: 'src/' });
    expect(src.node.kind === 'dir' && src.node.entries.map((e) => e.path)).toEqual(['src/app.ts', 'src/new.ts']);
  });

  it('reads a file as it was at an earlier event, and not before it was written', async () => {
    const api = await viewer();
    const then = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq, path: 'src/app.ts' });
    expect(then).toMatchObject({
      atEvent: first.seq,
      commit: first.commit,
      node: { kind: 'file', path: 'src/app.ts', encoding: 'utf8', content: 'export const v = 1;\n', truncated: false },
    });
    // Between the two calls (requested, started): still the first commit.
    const between = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, atEvent: second.seq - 1, path: 'src/app.ts' });
    expect(between.commit).toBe(first.commit);
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq, path: 'src/new.ts' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'src/new.ts does not exist in the workspace at this point',
    });
    // Before any call changed a file: the empty workspace.
    const start = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, atEvent: 1 });
    expect(start).toMatchObject({ atEvent: 1, commit: null, node: { kind: 'dir', path: '', entries: [] } });
  });

  it('sends a binary file as base64, cut at 1 MiB', async () => {
    const api = await viewer();
    const view = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, path: 'assets/big.bin' });
    if (view.node.kind !== 'file') throw new Error('expected a file');
    expect(view.node).toMatchObject({ size: big.length, encoding: 'base64', truncated: true });
    expect(Buffer.from(view.node.content, 'base64').equals(big.subarray(0, MAX_FILE_BYTES))).toBe(true);
  });

  it('refuses an event past the log, naming the range', async () => {
    const api = await viewer();
    const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: main }, select: { lastSeq: true } });
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, atEvent: lastSeq + 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: `Session ${main} has ${lastSeq} committed event(s); atEvent must be between 1 and ${lastSeq}`,
    });
  });

  it('a fork reads its parent’s files at the fork point, then its own', async () => {
    const operator = await tb.as('operator', fx.deps);
    const fork = await operator.sessions.fork({ teamId: tb.fx.teamId, sessionId: main, atEvent: first.seq });
    const api = await viewer();
    const inherited = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: fork.sessionId, path: 'src/app.ts' });
    expect(inherited).toMatchObject({ sessionId: fork.sessionId, atEvent: first.seq, commit: first.commit, node: { content: 'export const v = 1;\n' } });
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: fork.sessionId, path: 'src/new.ts' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // The branch's own mutating call, made on top of the fork point (as the worker restores it).
    const own = await fx.commit(runId, fork.sessionId, { 'src/app.ts': 'export const v = 3;\n', 'BRANCH.md': 'b\n' }, first.commit);
    const now = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: fork.sessionId, path: 'src/app.ts' });
    expect(now).toMatchObject({ atEvent: own.seq, commit: own.commit, node: { content: 'export const v = 3;\n' } });
    const atFork = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: fork.sessionId, atEvent: first.seq, path: 'src/app.ts' });
    expect(atFork.commit).toBe(first.commit);
    // The parent is unchanged by the branch.
    const parent = await api.sessions.files({ teamId: tb.fx.teamId, sessionId: main, path: 'src/app.ts' });
    expect(parent.node).toMatchObject({ content: 'export const v = 2;\n' });

    // sessions.diff: main's head against the branch's, read from the store.
    const diff = await api.sessions.diff({ teamId: tb.fx.teamId, a: main, b: fork.sessionId });
    expect(diff).toMatchObject({ divergedAfter: first.seq, commits: { a: second.commit, b: own.commit }, filesReason: null, filesTruncated: false });
    expect(diff.files).toContain('-export const v = 2;');
    expect(diff.files).toContain('+export const v = 3;');
    expect(diff.files).toContain('diff --git a/BRANCH.md b/BRANCH.md');
    expect(diff.files).toContain('diff --git a/src/new.ts b/src/new.ts');
  });

  it('diff of a branch that changed nothing against one that did compares with the empty workspace', async () => {
    const other = await fx.newRun();
    const made = await fx.commit(other.runId, other.sessionId, { 'only.txt': 'x\n' });
    const operator = await tb.as('operator', fx.deps);
    const fork = await operator.sessions.fork({ teamId: tb.fx.teamId, sessionId: other.sessionId, atEvent: 1 });
    const diff = await (await viewer()).sessions.diff({ teamId: tb.fx.teamId, a: fork.sessionId, b: other.sessionId });
    expect(diff).toMatchObject({ commits: { a: null, b: made.commit }, filesReason: null });
    expect(diff.files).toContain('+x');
  });

  it('without a workspace reader: PRECONDITION_FAILED for files, the reason in the diff', async () => {
    const api = await tb.as('viewer');
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: main })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'Session files are not readable on this server: it has no workspace store configured',
    });
    const diff = await api.sessions.diff({ teamId: tb.fx.teamId, a: main, b: main });
    expect(diff).toMatchObject({ files: null, commits: { a: second.commit, b: second.commit } });
    expect(diff.filesReason).toMatch(/no workspace store/);
  });

  it('files removed by retention are NOT_FOUND with the reason', async () => {
    const doomed = await fx.newRun();
    await fx.commit(doomed.runId, doomed.sessionId, { 'a.txt': 'a\n' });
    await fx.store.removeRun(doomed.runId, 'retention: 30 days after the run ended');
    const api = await tb.as('viewer', { ...fx.deps, workspaces: await fx.freshReader() });
    await expect(api.sessions.files({ teamId: tb.fx.teamId, sessionId: doomed.sessionId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^the files of this run were removed on .*: retention: 30 days after the run ended$/),
    });
  });
});
