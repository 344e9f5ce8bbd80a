import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PATCH_CHARS } from '../services/sessions-patch.service';
import { createAgentFixture } from '../testing/fixtures';
import { problemOf, restClient } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { filesFixture, type FilesFixture } from './sessions-files.fixtures';

/**
 * `sessions.patch` and `GET /api/v1/sessions/{sessionId}/patch` over a real Postgres workspace
 * store: a run seeded with files (as the worker stores them), calls that changed them, and the
 * series `git am` applies on top of the seeded files to give the session's latest files.
 */
const rest = restTestbed();
const tb = rest.tb;
let fx: FilesFixture;
let url: string;
let seeded: { runId: string; sessionId: string };
let seed: { commit: string; seq: number };
let first: { commit: string; seq: number };
let last: { commit: string; seq: number };
const SEED_FILES = { 'README.md': '# app\n', 'src/app.ts': 'export const v = 1;\n', 'old.txt': 'to be removed\n' };
/** Binary to git for sure: it holds a NUL. */
const binary = Buffer.concat([Buffer.from([0, 159, 146, 150]), randomBytes(300)]);
const scratch: string[] = [];

beforeAll(async () => {
  fx = await filesFixture(tb);
  url = await rest.serveWith(fx.deps);
  seeded = await fx.newRun();
  seed = await fx.seed(seeded.runId, seeded.sessionId, SEED_FILES);
  first = await fx.commit(seeded.runId, seeded.sessionId, { 'src/app.ts': 'export const v = 2;\n', 'assets/logo.bin': binary });
  last = await fx.commit(seeded.runId, seeded.sessionId, { 'old.txt': null, 'src/new.ts': 'export {};\n' });
});
afterAll(async () => {
  await fx?.close();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

const viewer = () => tb.as('viewer', fx.deps);

/** A repository holding `files` as one commit, with `patch` applied by `git am`; returns its files' contents. */
async function applyOn(files: Record<string, string | Buffer>, patch: string, read: string[]): Promise<Record<string, Buffer | null>> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-patch-apply-'));
  scratch.push(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'seed');
  await writeFile(join(dir, '..', `${dir.split('/').pop()}.patch`), patch);
  git('am', '-q', join(dir, '..', `${dir.split('/').pop()}.patch`));
  return Object.fromEntries(await Promise.all(read.map(async (path) => [path, await readFile(join(dir, path)).catch(() => null)] as const)));
}

describe('sessions.patch', () => {
  it('is the series from the seeded files to the latest, one message per call, which git am applies exactly', async () => {
    const api = await viewer();
    const result = await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: seeded.sessionId });
    expect(result).toMatchObject({ runId: seeded.runId, base: seed.commit, baseEvent: null, head: last.commit, messages: 2, truncated: false });
    expect(result.patch).toContain('diff --git a/src/app.ts b/src/app.ts');
    expect(result.patch).toContain('GIT binary patch');
    expect(result.patch).toContain('deleted file mode 100644');
    const files = await applyOn(SEED_FILES, result.patch, ['src/app.ts', 'assets/logo.bin', 'old.txt', 'src/new.ts', 'README.md']);
    expect(files['src/app.ts']?.toString()).toBe('export const v = 2;\n');
    expect(files['assets/logo.bin']?.equals(binary)).toBe(true);
    expect(files['old.txt']).toBeNull();
    expect(files['src/new.ts']?.toString()).toBe('export {};\n');
    expect(files['README.md']?.toString()).toBe('# app\n');
  });

  it('starts from the files at event base when one is given', async () => {
    const api = await viewer();
    const result = await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: seeded.sessionId, base: first.seq });
    expect(result).toMatchObject({ base: first.commit, baseEvent: first.seq, head: last.commit, messages: 1 });
    expect(result.patch).not.toContain('src/app.ts');
    expect(result.patch).toContain('src/new.ts');
    // At its latest event: nothing changed since, an empty series.
    expect(await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: seeded.sessionId, base: last.seq })).toMatchObject({ patch: '', messages: 0 });
  });

  it('a fork inherits its parent’s seed: its series holds the parent’s calls before the fork and its own after', async () => {
    const operator = await tb.as('operator', fx.deps);
    const fork = await operator.sessions.fork({ teamId: tb.fx.teamId, sessionId: seeded.sessionId, atEvent: first.seq });
    await fx.commit(seeded.runId, fork.sessionId, { 'src/fork.ts': 'fork\n' }, first.commit);
    const result = await (await viewer()).sessions.patch({ teamId: tb.fx.teamId, sessionId: fork.sessionId });
    expect(result).toMatchObject({ base: seed.commit, messages: 2 });
    expect(result.patch).toContain('src/fork.ts');
    expect(result.patch).not.toContain('src/new.ts');
  });

  it('is empty when nothing changed since the seed', async () => {
    const run = await fx.newRun();
    const only = await fx.seed(run.runId, run.sessionId, { 'a.txt': 'a\n' });
    expect(await (await viewer()).sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId })).toMatchObject({
      base: only.commit,
      head: only.commit,
      patch: '',
      messages: 0,
    });
  });

  it('a run that started empty needs a base, at an event by which files existed', async () => {
    const run = await fx.newRun();
    const api = await viewer();
    await expect(api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('did not start from files'),
    });
    await expect(api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId, base: 1 })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'The session had no files at event 1: give a later base',
    });
    const made = await fx.commit(run.runId, run.sessionId, { 'x.txt': 'x\n' });
    await fx.commit(run.runId, run.sessionId, { 'x.txt': 'y\n' });
    expect(await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId, base: made.seq })).toMatchObject({ base: made.commit, messages: 1 });
    await expect(api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId, base: 999 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('cuts a series over 5 MB for the dashboard, and sends it whole when asked', async () => {
    const run = await fx.newRun();
    await fx.seed(run.runId, run.sessionId, { 'a.txt': 'a\n' });
    await fx.commit(run.runId, run.sessionId, { 'big.bin': randomBytes(4.5 * 1024 * 1024) });
    const api = await viewer();
    const cut = await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId });
    expect(cut).toMatchObject({ truncated: true, messages: 1 });
    expect(cut.patch.length).toBe(MAX_PATCH_CHARS);
    const whole = await api.sessions.patch({ teamId: tb.fx.teamId, sessionId: run.sessionId, whole: true });
    expect(whole.truncated).toBe(false);
    expect(whole.patch.length).toBeGreaterThan(MAX_PATCH_CHARS);
  });

  it('is NOT_FOUND for another team’s session', async () => {
    const other = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    const api = await tb.as('viewer', fx.deps);
    const { runId } = await (await tb.asUser(tb.fx.outsider.id, fx.deps)).runs.create({ teamId: tb.fx.otherTeamId, agentId: other.agentId, goal: 'theirs' });
    const theirs = (await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } })).mainSessionId!;
    await expect(api.sessions.patch({ teamId: tb.fx.teamId, sessionId: theirs })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('GET /api/v1/sessions/{sessionId}/patch', () => {
  it('downloads the whole series as text/x-patch, named after the session', async () => {
    const reply = await restClient(url, rest.token('viewer')).call('getSessionPatch', { params: { sessionId: seeded.sessionId } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/x-patch; charset=utf-8');
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="${seeded.sessionId}.patch"`);
    const trpc = await (await viewer()).sessions.patch({ teamId: tb.fx.teamId, sessionId: seeded.sessionId });
    expect(reply.body).toBe(trpc.patch);
    const since = await restClient(url, rest.token('viewer')).call('getSessionPatch', { params: { sessionId: seeded.sessionId }, query: { base: last.seq } });
    expect(since.status).toBe(200);
    expect(since.body).toBe('');
  });

  it('answers problem+json: 412 for a run that started empty, 404 for another team’s session', async () => {
    const run = await fx.newRun();
    const api = restClient(url, rest.token('viewer'));
    expect(problemOf(await api.call('getSessionPatch', { params: { sessionId: run.sessionId } }), 412, 'PRECONDITION_FAILED').detail).toMatch(
      /did not start from files .*give base/,
    );
    const other = await createAgentFixture(tb.db, tb.fx.otherTeamId);
    const { runId } = await (await tb.asUser(tb.fx.outsider.id, fx.deps)).runs.create({ teamId: tb.fx.otherTeamId, agentId: other.agentId, goal: 'theirs' });
    const theirs = (await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } })).mainSessionId!;
    problemOf(await api.call('getSessionPatch', { params: { sessionId: theirs } }), 404, 'NOT_FOUND');
  });
});
