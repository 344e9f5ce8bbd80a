import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { SecretBox, loadSessionEvents } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import { DELIVERY_TOOL_SPECS, type ScriptTurn } from '@looplane/engine';
import { createBareRepository, startGitHttpServer, type GitHttpServer } from '@looplane/testkit/git-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEgressSource } from '../sandbox/test-egress-source';
import { startForgeDouble, type ForgeDouble } from '../testing/forge-double';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';

/**
 * Work handed back through the real API, worker, bwrap, `git http-backend` and a forge double:
 * a branch pushed by the worker after an approver agreed (exactly the session's files, built on
 * the commit the run started from), nothing pushed when rejected, the default branch refused, a
 * pull request opened with the token in one request, and a patch series that `git am` applies.
 */

const KEY = randomBytes(32).toString('base64');
const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'looplane-delivery-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, KEY);
const s = setUpRuntimeSuite('delivery', {
  leaseTtlMs: 10_000,
  encryptionKey: KEY,
  sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress },
});
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus) });
const FILES = { 'README.md': '# widgets\n', 'src/widget.js': 'module.exports = () => 41;\n', 'logo.bin': Buffer.from([0, 1, 2, 255]) };
const FIXED = 'module.exports = () => 42;\n';

let server: GitHttpServer;
let forge: ForgeDouble;
let fx: TeamFixture;
let repoUrl: string;
let upstream: string;

beforeAll(async () => {
  const repos = join(root, 'repos');
  upstream = (await createBareRepository(repos, 'acme/widgets', FILES)).headCommit;
  server = await startGitHttpServer({ root: repos, users: { 'x-access-token': TOKEN } });
  repoUrl = server.url('acme/widgets');
  forge = await startForgeDouble({ token: TOKEN });
  fx = await createTeamFixture(s.t.db);
  const admin = await callerAs(api(), { userId: fx.members.admin.id });
  await admin.policies.save({
    teamId: fx.teamId,
    document: {
      version: 1,
      default: 'allow',
      workspace: { sources: ['http://127.0.0.1:*/**'] },
      rules: [{ id: 'deliver-needs-approval', match: { tool: ['publish_branch', 'open_pull_request'] }, outcome: 'require_approval' }],
    },
  });
  const box = new SecretBox(KEY);
  await s.t.db.teamSecret.create({
    data: { teamId: fx.teamId, name: 'REPO_TOKEN', kind: 'token', forge: 'github', apiUrl: forge.url, ciphertext: box.seal(TOKEN), last4: TOKEN.slice(-4) },
  });
});

afterAll(async () => {
  await server?.close();
  await forge?.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

const LOAD: ScriptTurn = { calls: [{ tool: 'load_tools', args: { names: ['shell', ...DELIVERY_TOOL_SPECS.map((t) => t.name)] } }] };
const FIX: ScriptTurn = {
  calls: [{ tool: 'shell', args: { command: `printf '${FIXED.replace('\n', '\\n')}' > src/widget.js && echo added > NOTES.md && rm README.md` } }],
};
const call = (tool: string, args: Record<string, unknown>): ScriptTurn => ({ calls: [{ tool, args: args as never }] });

async function startRun(script: ScriptTurn[]) {
  const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script });
  const operator = await callerAs(api(), { userId: fx.members.operator.id });
  const shell = s.worker.sandbox!.tools.filter((t) => t.spec.name === 'shell').map((t) => ({ ...t.spec }));
  const agent = await operator.agents.create({
    teamId: fx.teamId,
    name: `deliver-${randomBytes(3).toString('hex')}`,
    endpointId,
    tools: [...shell, ...DELIVERY_TOOL_SPECS.map((spec) => ({ ...spec }))],
  });
  const { runId } = await operator.runs.create({
    teamId: fx.teamId,
    agentId: agent.id,
    goal: 'Fix it',
    workspace: { git: { url: repoUrl, secretRef: 'REPO_TOKEN' } },
  });
  return { runId, sessionId: (await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })).mainSessionId! };
}

const pending = (runId: string) =>
  waitFor(async () => (await s.t.db.approval.findMany({ where: { runId, status: 'pending' } }))[0], 60_000, `an approval in run ${runId}`);

async function decide(runId: string, decision: 'approve' | 'reject') {
  const approval = await pending(runId);
  const approver = await callerAs(api(), { userId: fx.members.approver.id });
  await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision, ...(decision === 'reject' ? { comment: 'not now' } : {}) });
  return approval;
}

// The git server runs in this process: git against it must not block the event loop.
const run = promisify(execFile);
const auth = () => ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`];
const lsRemote = async (ref: string) => (await run('git', [...auth(), 'ls-remote', repoUrl, ref], { encoding: 'utf8' })).stdout.trim();

async function cloneBranch(branch: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'looplane-delivery-clone-'));
  await run('git', [...auth(), 'clone', '-q', '--branch', branch, repoUrl, dir]);
  return dir;
}

const toolOutputs = async (sessionId: string) =>
  (await loadSessionEvents(s.worker.pool, sessionId)).filter((e) => e.type === 'tool.finished').map((e) => e.payload as { ok: boolean; output: string });

describe('delivery: publish_branch, open_pull_request, export_patch (real API, worker, git http-backend, forge double)', () => {
  it('pushes the session’s exact files as a branch on the commit the run started from, once approved, and opens one pull request with the token', async () => {
    const script = [
      LOAD,
      FIX,
      call('publish_branch', { branch: 'fix/widget', message: 'Fix the widget' }),
      call('open_pull_request', { branch: 'fix/widget', title: 'Fix the widget', body: 'It returned 41.' }),
      { finish: 'done' },
    ];
    const { runId, sessionId } = await startRun(script);
    const push = await decide(runId, 'approve');
    expect(push.tool).toBe('publish_branch');
    expect(await lsRemote('refs/heads/fix/widget')).toBe('');
    const requestsBefore = forge.requests.length;
    const pr = await decide(runId, 'approve');
    expect(pr.tool).toBe('open_pull_request');
    const run = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(run.status, run.error ?? '').toBe('succeeded');

    const clone = await cloneBranch('fix/widget');
    try {
      expect(readFileSync(join(clone, 'src/widget.js'), 'utf8')).toBe(FIXED);
      expect(readFileSync(join(clone, 'NOTES.md'), 'utf8')).toBe('added\n');
      expect(readFileSync(join(clone, 'logo.bin'))).toEqual(FILES['logo.bin']);
      expect(() => readFileSync(join(clone, 'README.md'))).toThrow();
      expect(execFileSync('git', ['-C', clone, 'rev-parse', 'HEAD~1'], { encoding: 'utf8' }).trim()).toBe(upstream);
      expect(execFileSync('git', ['-C', clone, 'log', '-1', '--format=%s'], { encoding: 'utf8' }).trim()).toBe('Fix the widget');
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
    expect((await lsRemote('refs/heads/main')).split('\t')[0]).toBe(upstream);

    const opened = forge.requests.slice(requestsBefore);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ method: 'POST', path: '/repos/acme/widgets/pulls', body: { head: 'fix/widget', base: 'main', title: 'Fix the widget' } });
    expect(opened[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const outputs = await toolOutputs(sessionId);
    expect(outputs.at(-2)).toMatchObject({ ok: true, output: expect.stringContaining('Pushed fix/widget') });
    expect(outputs.at(-1)).toMatchObject({ ok: true, output: expect.stringMatching(/Opened pull request #\d+ from fix\/widget into main: http/) });
    expect(JSON.stringify(await s.t.db.event.findMany({ where: { runId }, select: { payload: true } }))).not.toContain(TOKEN);
  }, 120_000);

  it('pushes nothing when the approver rejects, and refuses the default branch', async () => {
    const script = [
      LOAD,
      FIX,
      call('publish_branch', { branch: 'rejected-branch', message: 'x' }),
      call('publish_branch', { branch: 'main', message: 'straight to main' }),
      { finish: 'done' },
    ];
    const { runId, sessionId } = await startRun(script);
    await decide(runId, 'reject');
    await decide(runId, 'approve');
    expect((await waitForRun(s.t.db, runId, undefined, 60_000)).status).toBe('succeeded');
    expect(await lsRemote('refs/heads/rejected-branch')).toBe('');
    expect((await lsRemote('refs/heads/main')).split('\t')[0]).toBe(upstream);
    const outputs = await toolOutputs(sessionId);
    expect(outputs.at(-1)).toMatchObject({ ok: false, output: expect.stringContaining('main is the default branch of') });
  }, 120_000);

  it('exports a patch series that git am applies to the repository the run started from', async () => {
    const { runId, sessionId } = await startRun([LOAD, FIX, call('export_patch', {}), { finish: 'done' }]);
    expect((await waitForRun(s.t.db, runId, undefined, 60_000)).status).toBe('succeeded');
    const output = (await toolOutputs(sessionId)).at(-1)!;
    expect(output.ok).toBe(true);
    expect(output.output).toContain(`GET /api/v1/sessions/${sessionId}/patch`);
    const patch = output.output.slice(output.output.indexOf('From '));
    const clone = await cloneBranch('main');
    try {
      execFileSync('git', ['-C', clone, '-c', 'user.name=t', '-c', 'user.email=t@t', 'am', '-q'], { input: patch });
      expect(readFileSync(join(clone, 'src/widget.js'), 'utf8')).toBe(FIXED);
      expect(readFileSync(join(clone, 'NOTES.md'), 'utf8')).toBe('added\n');
      expect(() => readFileSync(join(clone, 'README.md'))).toThrow();
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  }, 120_000);
});
