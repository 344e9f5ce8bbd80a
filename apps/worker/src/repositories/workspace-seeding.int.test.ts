import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDispatch, handleTeamUpload } from '@looplane/api';
import { callerAs, createTeamFixture, createTestLive, type TeamFixture } from '@looplane/api/testing';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import { craftedTar, systemTar } from '@looplane/workspaces/testing';
import { SecretBox, loadSessionEvents } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createBareRepository, startGitHttpServer, type GitHttpServer } from '@looplane/testkit/git-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { lazyEgressSource } from '../sandbox/test-egress-source';

/**
 * Runs that start from a private repository, through the real API, worker, bwrap and a real git
 * server (`git http-backend` behind basic auth): the worker fetches with a team token secret that
 * never reaches the sandbox, an event, the log, the store's rows or the work tree; failures end
 * the run before any model call, naming the cause, and charge nothing.
 */

const KEY = randomBytes(32).toString('base64');
const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'looplane-seeding-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, KEY);
const s = setUpRuntimeSuite('seeding', {
  leaseTtlMs: 10_000,
  encryptionKey: KEY,
  sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress },
});
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });
const workFile = (sessionId: string, path: string) => join(root, 'workspaces', sessionId, 'work', path);

let server: GitHttpServer;
let fx: TeamFixture;
let repo: { headCommit: string; branches: Record<string, string> };
const FILES = {
  'README.md': '# widgets\n',
  'src/widget.js': 'module.exports = () => 41;\n',
  'AGENTS.md': 'Run `npm test` before you finish. Never edit vendor/.\n',
};

beforeAll(async () => {
  const repos = join(root, 'repos');
  repo = await createBareRepository(repos, 'widgets', FILES, {
    extraBranches: { feature: { 'src/widget.js': 'module.exports = () => 42;\n' } },
    tags: ['v1.0'],
  });
  server = await startGitHttpServer({ root: repos, users: { 'x-access-token': TOKEN } });
  fx = await createTeamFixture(s.t.db);
  const admin = await callerAs(api(), { userId: fx.members.admin.id });
  await admin.policies.save({ teamId: fx.teamId, document: { version: 1, default: 'allow', workspace: { sources: ['http://127.0.0.1:*/**'] } } });
  const box = new SecretBox(KEY);
  for (const [name, value] of [
    ['REPO_TOKEN', TOKEN],
    ['WRONG_TOKEN', 'ghp_wrongwrongwrongwrong'],
  ] as const) {
    await s.t.db.teamSecret.create({ data: { teamId: fx.teamId, name, kind: 'token', ciphertext: box.seal(value), last4: value.slice(-4) } });
  }
});

afterAll(async () => {
  await server?.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** Probes from inside the sandbox for anything that could hold the token. */
const PROBES = [
  'cat .git/config; ls -la .git',
  'env; cat /proc/self/environ | tr "\\0" "\\n"',
  'ps -ef 2>/dev/null || ls /proc',
  'grep -rl ghp_ /workspace /tmp /etc /home /root /run 2>/dev/null | head -5; git log --oneline -1; git status --short | head -5',
];

async function startRun(workspace: Record<string, unknown>, script: ScriptTurn[]): Promise<{ runId: string; sessionId: string }> {
  const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script });
  const operator = await callerAs(api(), { userId: fx.members.operator.id });
  const shell = s.worker.sandbox!.tools.filter((t) => t.spec.name === 'shell').map((t) => ({ ...t.spec }));
  const agent = await operator.agents.create({ teamId: fx.teamId, name: `seeded-${randomBytes(3).toString('hex')}`, endpointId, tools: shell });
  const { runId } = await operator.runs.create({ teamId: fx.teamId, agentId: agent.id, goal: 'Fix the widget', workspace: workspace as never });
  const sessionId = (await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })).mainSessionId!;
  return { runId, sessionId };
}

async function filesOf(dir: string, top = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(path, top)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

describe('runs seeded from a private repository (real API, worker, bwrap and git http-backend)', () => {
  it('clones with a token secret that reaches no event, log row, work tree file, sandbox process or database dump', async () => {
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] },
      ...PROBES.map((command) => ({ calls: [{ tool: 'shell', args: { command } }] })),
      { finish: 'done' },
    ];
    const { runId, sessionId } = await startRun({ git: { url: server.url('widgets'), secretRef: 'REPO_TOKEN' } }, script);
    const run = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');

    const events = await loadSessionEvents(s.worker.pool, sessionId);
    const [seeded, started] = events;
    expect(seeded).toMatchObject({
      type: 'workspace.seeded',
      payload: { source: 'git', url: server.url('widgets'), branch: 'main', revision: repo.headCommit, files: 3, secretRef: 'REPO_TOKEN' },
    });
    expect(started?.type).toBe('run.started');
    expect(started?.payload).toMatchObject({ repository: { agentsMd: { text: FILES['AGENTS.md'], truncated: false } } });
    // The files and the repository are the remote's, at its default branch.
    expect(await readFile(workFile(sessionId, 'src/widget.js'), 'utf8')).toBe(FILES['src/widget.js']);
    expect(execFileSync('git', ['-c', 'safe.directory=*', '-C', workFile(sessionId, ''), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()).toBe(
      repo.headCommit,
    );
    expect(await readFile(workFile(sessionId, '.git/config'), 'utf8')).toContain(`url = ${server.url('widgets')}`);
    // The server saw the credential as basic auth on every request it served.
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.user === 'x-access-token' && r.authorized)).toBe(true);

    // The probes ran in the sandbox and saw no token.
    const outputs = events.filter((e) => e.type === 'tool.finished').map((e) => JSON.stringify(e.payload));
    expect(outputs).toHaveLength(PROBES.length);
    const text = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const everything = [
      text(await s.t.db.event.findMany({ where: { runId } })),
      text(await s.t.db.auditLog.findMany({ where: { teamId: fx.teamId } })),
      text(await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })),
    ];
    for (const text of everything) expect(text).not.toContain(TOKEN);
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
    for (const file of await filesOf(join(root, 'workspaces', sessionId))) {
      const content = await readFile(file);
      expect(content.includes(TOKEN) || content.includes(basic), file).toBe(false);
    }
    const dump = execFileSync('pg_dump', ['--data-only', s.t.url], { maxBuffer: 512 * 1024 * 1024 });
    expect(dump.includes(TOKEN) || dump.includes(basic)).toBe(false);
  }, 120_000);

  it('a fork at any event and a run seeded from the session both start from the seed in the store, plus what was written by then', async () => {
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] },
      { calls: [{ tool: 'shell', args: { command: 'echo "module.exports = () => 42;" > src/widget.js && echo noted > notes.txt' } }] },
      { finish: 'fixed' },
    ];
    const { runId, sessionId } = await startRun({ git: { url: server.url('widgets'), secretRef: 'REPO_TOKEN' } }, script);
    expect((await waitForRun(s.t.db, runId, undefined, 60_000)).status).toBe('succeeded');
    const events = await loadSessionEvents(s.worker.pool, sessionId);
    const wrote = events.find((e) => e.type === 'tool.finished')!.seq;
    const cacheDir = mkdtempSync(join(tmpdir(), 'looplane-seeding-reader-'));
    const reader = { ...api(), workspaces: new WorkspaceReader({ store: new PostgresWorkspaceStore(s.worker.pool), cacheDir }) };
    const viewer = await callerAs(reader, { userId: fx.members.viewer.id });
    const fileAt = async (id: string, path: string, atEvent?: number) => {
      const files = await viewer.sessions.files({ teamId: fx.teamId, sessionId: id, path, ...(atEvent ? { atEvent } : {}) }).catch((error: Error) => {
        if (/does not exist/.test(error.message)) return null;
        throw error;
      });
      return files?.node && 'content' in files.node ? files.node.content : null;
    };
    // Forks made through the API (not run: the files are read from the store at their fork point).
    const idle = await createTestLive();
    const forker = await callerAs({ db: s.t.db, dispatch: idle.dispatch }, { userId: fx.members.operator.id });
    try {
      const atSeed = await forker.sessions.fork({ teamId: fx.teamId, sessionId, atEvent: 2 });
      const atWrite = await forker.sessions.fork({ teamId: fx.teamId, sessionId, atEvent: wrote });
      expect(await fileAt(atSeed.sessionId, 'src/widget.js')).toBe(FILES['src/widget.js']);
      expect(await fileAt(atSeed.sessionId, 'notes.txt')).toBeNull();
      expect(await fileAt(atWrite.sessionId, 'src/widget.js')).toBe('module.exports = () => 42;\n');
      expect(await fileAt(atWrite.sessionId, 'notes.txt')).toBe('noted\n');
    } finally {
      await idle.close();
    }
    // A new run from that session's files at the seed, and at its end.
    const fromSeed = await startRun({ session: { sessionId, atEvent: 1 } }, [{ finish: 'read' }]);
    const fromEnd = await startRun({ session: { sessionId } }, [{ finish: 'read' }]);
    for (const ids of [fromSeed, fromEnd]) expect((await waitForRun(s.t.db, ids.runId, undefined, 60_000)).status).toBe('succeeded');
    expect(await readFile(workFile(fromSeed.sessionId, 'src/widget.js'), 'utf8')).toBe(FILES['src/widget.js']);
    expect(await readFile(workFile(fromEnd.sessionId, 'notes.txt'), 'utf8')).toBe('noted\n');
    const [seeded] = await loadSessionEvents(s.worker.pool, fromEnd.sessionId);
    expect(seeded).toMatchObject({ type: 'workspace.seeded', payload: { source: 'session', fromSession: { sessionId }, files: 4 } });
    expect(await fileAt(fromEnd.sessionId, 'notes.txt', 1)).toBe('noted\n');
    await rm(cacheDir, { recursive: true, force: true });
  }, 120_000);

  it('starts from an uploaded archive exactly as uploaded, and an unsafe archive is refused at upload with nothing stored', async () => {
    const upload = async (name: string, body: Buffer) => {
      const request = new Request(`http://127.0.0.1/api/teams/${fx.teamId}/uploads?filename=${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', origin: 'http://127.0.0.1' },
        body,
      });
      const response = await handleTeamUpload(request, fx.teamId, { deps: api(), session: { userId: fx.members.operator.id, sessionVersion: 0 }, ip: null });
      return { status: response.status, body: (await response.json()) as { id?: string; detail?: string } };
    };
    const tree = {
      'app/main.py': 'print("hi")\n',
      'run.sh': { content: '#!/bin/sh\necho ok\n', mode: 0o755 },
      'AGENTS.md': 'Use python3.\n',
      'data.bin': Buffer.from([0, 255, 7]),
    };
    const good = await upload('project.tar.gz', systemTar(tree, ['-z']));
    expect(good.status).toBe(201);
    const before = await s.t.db.upload.count();
    const evil = await upload('evil.tar', craftedTar([{ name: '../outside.txt', content: 'x' }]));
    expect(evil.status).toBe(400);
    expect(await s.t.db.upload.count()).toBe(before);

    const { runId, sessionId } = await startRun({ archive: { uploadId: good.body.id } }, [{ finish: 'read' }]);
    const run = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(await readFile(workFile(sessionId, 'app/main.py'), 'utf8')).toBe('print("hi")\n');
    expect(await readFile(workFile(sessionId, 'data.bin'))).toEqual(Buffer.from([0, 255, 7]));
    expect((await stat(workFile(sessionId, 'run.sh'))).mode & 0o111).not.toBe(0);
    const [seeded, started] = await loadSessionEvents(s.worker.pool, sessionId);
    expect(seeded).toMatchObject({ type: 'workspace.seeded', payload: { source: 'archive', uploadId: good.body.id, filename: 'project.tar.gz', files: 4 } });
    expect(started?.payload).toMatchObject({ repository: { agentsMd: { text: 'Use python3.\n' } } });
    expect((await s.t.db.upload.findUniqueOrThrow({ where: { id: good.body.id! } })).usedAt).not.toBeNull();
    // Another team cannot start from it.
    const other = await createTeamFixture(s.t.db);
    const stranger = await callerAs(api(), { userId: other.members.operator.id });
    const { agentId } = await createTestAgent(s.t.db, other.teamId, { script: [{ finish: 'x' }] });
    await expect(stranger.runs.create({ teamId: other.teamId, agentId, goal: 'x', workspace: { archive: { uploadId: good.body.id! } } })).rejects.toMatchObject(
      {
        code: 'NOT_FOUND',
      },
    );
  }, 120_000);

  it('checks out a branch, a tag or a commit as asked', async () => {
    const finish: ScriptTurn[] = [{ finish: 'done' }];
    const branch = await startRun({ git: { url: server.url('widgets'), ref: 'feature', secretRef: 'REPO_TOKEN' } }, finish);
    const tag = await startRun({ git: { url: server.url('widgets'), ref: 'v1.0', secretRef: 'REPO_TOKEN' } }, finish);
    const commit = await startRun({ git: { url: server.url('widgets'), ref: repo.branches.feature!, secretRef: 'REPO_TOKEN', depth: 5 } }, finish);
    for (const ids of [branch, tag, commit]) expect((await waitForRun(s.t.db, ids.runId, undefined, 60_000)).status).toBe('succeeded');
    expect(await readFile(workFile(branch.sessionId, 'src/widget.js'), 'utf8')).toBe('module.exports = () => 42;\n');
    expect(await readFile(workFile(tag.sessionId, 'src/widget.js'), 'utf8')).toBe(FILES['src/widget.js']);
    expect(await readFile(workFile(commit.sessionId, 'src/widget.js'), 'utf8')).toBe('module.exports = () => 42;\n');
    const seededOf = async (sessionId: string) => (await loadSessionEvents(s.worker.pool, sessionId))[0]!.payload;
    expect(await seededOf(branch.sessionId)).toMatchObject({ ref: 'feature', branch: 'feature', revision: repo.branches.feature });
    expect(await seededOf(tag.sessionId)).toMatchObject({ ref: 'v1.0', revision: repo.headCommit });
    expect(await seededOf(tag.sessionId)).not.toHaveProperty('branch');
    expect(await seededOf(commit.sessionId)).toMatchObject({ revision: repo.branches.feature });
  }, 120_000);

  it.each([
    ['a wrong token', { secretRef: 'WRONG_TOKEN' }, /refused the credentials \(authentication failed\)/],
    ['no credential at all', {}, /refused the credentials/],
    ['a ref the repository does not have', { secretRef: 'REPO_TOKEN', ref: 'no-such-branch' }, /ref no-such-branch does not exist/],
    ['a repository that does not exist', { secretRef: 'REPO_TOKEN', repo: 'missing' }, /workspace: /],
  ])(
    'fails the run before any model call, naming the cause, for %s',
    async (_, variant, reason) => {
      const { repo: name = 'widgets', ...git } = variant as { repo?: string; secretRef?: string; ref?: string };
      const { runId, sessionId } = await startRun({ git: { url: server.url(name), ...git } }, [{ finish: 'never reached' }]);
      const run = await waitForRun(s.t.db, runId, undefined, 60_000);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(reason);
      expect(run.error).not.toContain(TOKEN);
      const events = await loadSessionEvents(s.worker.pool, sessionId);
      expect(events.map((e) => e.type)).toEqual(['run.finished']);
      expect(Number(run.spentTokens)).toBe(0);
      expect(Number(run.spentCostMicros)).toBe(0);
    },
    60_000,
  );

  it('refuses at runs.create a repository the policy does not allow, or a secret of the wrong kind', async () => {
    const operator = await callerAs(api(), { userId: fx.members.operator.id });
    const { agentId } = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'x' }] });
    const before = await s.t.db.run.count();
    await expect(
      operator.runs.create({ teamId: fx.teamId, agentId, goal: 'x', workspace: { git: { url: 'https://github.com/acme/api.git' } } }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('matches none of the policy') });
    await expect(
      operator.runs.create({ teamId: fx.teamId, agentId, goal: 'x', workspace: { git: { url: `https://x:${TOKEN}@127.0.0.1:1/r.git` } } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      operator.runs.create({ teamId: fx.teamId, agentId, goal: 'x', workspace: { git: { url: server.url('widgets'), secretRef: 'NOPE' } } }),
    ).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', message: expect.stringContaining('NOPE') });
    expect(await s.t.db.run.count()).toBe(before);
  });

  it('a repository the policy stopped allowing after the create fails the run with the policy’s reason', async () => {
    // A run row as runs.create wrote it while the repository was allowed; the policy changed since.
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ finish: 'never reached' }] });
    const ids = await createTestRun(s.t.db, agent);
    await s.t.db.run.update({ where: { id: ids.runId }, data: { workspace: { git: { url: 'https://github.com/acme/api.git' } } } });
    await s.client.enqueue({ ...ids, reason: 'start' });
    const run = await waitForRun(s.t.db, ids.runId, undefined, 60_000);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^workspace: the team policy refuses this repository: https:\/\/github.com\/acme\/api.git matches none of the policy/);
    expect((await loadSessionEvents(s.worker.pool, ids.sessionId)).map((e) => e.type)).toEqual(['run.finished']);
  }, 60_000);
});
