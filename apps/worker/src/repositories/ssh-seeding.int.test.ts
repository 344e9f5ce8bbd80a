import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { SecretBox, loadSessionEvents } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import { DELIVERY_TOOL_SPECS, type ScriptTurn } from '@looplane/engine';
import { createBareRepository, generateSshKey, startSshGitServer, type SshGitServer, type SshKeyPair } from '@looplane/testkit/git-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEgressSource } from '../sandbox/test-egress-source';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';

/**
 * Runs that start from a private repository over ssh, through the real API, worker, bwrap and
 * sshd with git-shell: the worker fetches with a team `ssh_key` secret (stored sealed through
 * `secrets.create`) that reaches no event, audit row, work tree file or database dump; a key the
 * server does not know fails the run before any model call, naming authentication; and an
 * approved `publish_branch` pushes the session's files over ssh with the same key.
 */

const KEY = randomBytes(32).toString('base64');
const root = mkdtempSync(join(tmpdir(), 'looplane-ssh-seeding-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, KEY);
const s = setUpRuntimeSuite('ssh-seeding', {
  leaseTtlMs: 10_000,
  encryptionKey: KEY,
  sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress },
});
const api = () => ({ db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus), secretBox: new SecretBox(KEY) });
const workDir = (sessionId: string) => join(root, 'workspaces', sessionId);

const FILES = {
  'README.md': '# widgets\n',
  'src/widget.js': 'module.exports = () => 41;\n',
  'AGENTS.md': 'Run `npm test` before you finish.\n',
};
const FIXED = 'module.exports = () => 42;\n';

let server: SshGitServer;
let fx: TeamFixture;
let repo: { path: string; headCommit: string };
let key: SshKeyPair;
let stranger: SshKeyPair;

beforeAll(async () => {
  const repos = join(root, 'repos');
  repo = await createBareRepository(repos, 'widgets', FILES);
  key = await generateSshKey('looplane-deploy');
  stranger = await generateSshKey('looplane-stranger');
  server = await startSshGitServer({ root: repos, authorizedKeys: [key.publicKey] });
  fx = await createTeamFixture(s.t.db);
  const admin = await callerAs(api(), { userId: fx.members.admin.id });
  await admin.policies.save({
    teamId: fx.teamId,
    document: {
      version: 1,
      default: 'allow',
      workspace: { sources: [`ssh://${server.user}@127.0.0.1:*/**`] },
      rules: [{ id: 'deliver-needs-approval', match: { tool: ['publish_branch', 'open_pull_request'] }, outcome: 'require_approval' }],
    },
  });
  // Stored the way an admin stores them: sealed, with an audit row naming the secret and its kind.
  await admin.secrets.create({ teamId: fx.teamId, name: 'DEPLOY_KEY', kind: 'ssh_key', value: key.privateKey });
  await admin.secrets.create({ teamId: fx.teamId, name: 'STRANGER_KEY', kind: 'ssh_key', value: stranger.privateKey });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/**
 * What would give the key away: the whole key, its body on one line, and each line of its body
 * that another ed25519 key does not share (the first lines are the same header for every key).
 */
function keyTraces(privateKey: string, other: string): string[] {
  const body = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
  const common = new Set(body(other));
  return [privateKey.trim(), body(privateKey).join(''), ...body(privateKey).filter((line) => !common.has(line))];
}

async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

// sshd and the repositories are served to this process's children: never block the event loop on them.
const run = promisify(execFile);
const bare = async (args: string[]) => (await run('git', ['--git-dir', repo.path, ...args], { encoding: 'utf8' })).stdout.trim();

const LOAD: ScriptTurn = { calls: [{ tool: 'load_tools', args: { names: ['shell', ...DELIVERY_TOOL_SPECS.map((t) => t.name)] } }] };
const shell = (command: string): ScriptTurn => ({ calls: [{ tool: 'shell', args: { command } }] });

async function startRun(secretRef: string, script: ScriptTurn[]): Promise<{ runId: string; sessionId: string }> {
  const { endpointId } = await createTestAgent(s.t.db, fx.teamId, { script });
  const operator = await callerAs(api(), { userId: fx.members.operator.id });
  const shellSpec = s.worker.sandbox!.tools.filter((t) => t.spec.name === 'shell').map((t) => ({ ...t.spec }));
  const agent = await operator.agents.create({
    teamId: fx.teamId,
    name: `ssh-${randomBytes(3).toString('hex')}`,
    endpointId,
    tools: [...shellSpec, ...DELIVERY_TOOL_SPECS.map((spec) => ({ ...spec }))],
  });
  const { runId } = await operator.runs.create({
    teamId: fx.teamId,
    agentId: agent.id,
    goal: 'Fix the widget',
    workspace: { git: { url: server.url('widgets'), secretRef } },
  });
  return { runId, sessionId: (await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })).mainSessionId! };
}

describe('runs seeded over ssh with an ssh_key team secret (real API, worker, bwrap and sshd)', () => {
  it('clones with the key, which reaches no event, audit row, work tree file or database dump, and pushes an approved branch with it', async () => {
    const script: ScriptTurn[] = [
      LOAD,
      // Probes from inside the sandbox for anything that could hold the key.
      shell('cat .git/config; ls -la .git; env; grep -rl "PRIVATE KEY" /workspace /tmp /etc /home /root /run 2>/dev/null | head -5'),
      shell(`printf '${FIXED.replace('\n', '\\n')}' > src/widget.js && echo added > NOTES.md`),
      { calls: [{ tool: 'publish_branch', args: { branch: 'fix/widget', message: 'Fix the widget' } }] },
      { finish: 'done' },
    ];
    const { runId, sessionId } = await startRun('DEPLOY_KEY', script);
    const approval = await waitFor(
      async () => {
        const ended = await s.t.db.run.findFirst({ where: { id: runId, status: { in: ['succeeded', 'failed', 'cancelled'] } } });
        if (ended) throw new Error(`the run ended ${ended.status} before asking to push: ${ended.error}`);
        return (await s.t.db.approval.findMany({ where: { runId, status: 'pending' } }))[0];
      },
      60_000,
      'the push approval',
    );
    expect(approval.tool).toBe('publish_branch');
    // Nothing is pushed before an approver agrees.
    expect(await bare(['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe('refs/heads/main');
    const approver = await callerAs(api(), { userId: fx.members.approver.id });
    await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve' });
    const finished = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(finished.status, finished.error ?? '').toBe('succeeded');

    const events = await loadSessionEvents(s.worker.pool, sessionId);
    expect(events[0]).toMatchObject({
      type: 'workspace.seeded',
      payload: { source: 'git', url: server.url('widgets'), branch: 'main', revision: repo.headCommit, files: 3, secretRef: 'DEPLOY_KEY' },
    });
    expect(events[1]?.payload).toMatchObject({ repository: { agentsMd: { text: FILES['AGENTS.md'] } } });
    const outputs = events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as { ok: boolean; output: string });
    expect(outputs.at(-1)).toMatchObject({ ok: true, output: expect.stringContaining(`Pushed fix/widget to ${server.url('widgets')} at `) });

    // The files are the repository's at its HEAD, in a repository whose origin is the ssh URL.
    const work = join(workDir(sessionId), 'work');
    expect(await readFile(join(work, 'README.md'), 'utf8')).toBe(FILES['README.md']);
    expect(await readFile(join(work, 'AGENTS.md'), 'utf8')).toBe(FILES['AGENTS.md']);
    expect((await run('git', ['-c', 'safe.directory=*', '-C', work, 'rev-parse', 'HEAD'], { encoding: 'utf8' })).stdout.trim()).toBe(repo.headCommit);
    expect(await readFile(join(work, '.git', 'config'), 'utf8')).toContain(`url = ${server.url('widgets')}`);

    // The branch on the server: exactly the session's files, one commit on the commit the run started from.
    const tip = await bare(['rev-parse', 'refs/heads/fix/widget']);
    expect(await bare(['rev-parse', `${tip}^`])).toBe(repo.headCommit);
    expect(await bare(['ls-tree', '-r', '--name-only', tip])).toBe(['AGENTS.md', 'NOTES.md', 'README.md', 'src/widget.js'].join('\n'));
    expect(await bare(['show', `${tip}:src/widget.js`])).toBe(FIXED.trim());
    expect(await bare(['rev-parse', 'refs/heads/main'])).toBe(repo.headCommit);

    // The key is nowhere: events (the sandbox probes' output included), audit rows, the run, the
    // secret's row, the work tree and its .git, and the whole database.
    const traces = keyTraces(key.privateKey, stranger.privateKey);
    expect(traces.length).toBeGreaterThan(3);
    const text = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const rows = {
      events: text(await s.t.db.event.findMany({ where: { runId } })),
      audit: text(await s.t.db.auditLog.findMany({ where: { teamId: fx.teamId } })),
      run: text(await s.t.db.run.findUniqueOrThrow({ where: { id: runId } })),
      secret: text(await s.t.db.teamSecret.findMany({ where: { teamId: fx.teamId } })),
    };
    expect(rows.audit).toContain('secret.created');
    for (const [name, value] of Object.entries(rows)) for (const trace of traces) expect(value.includes(trace), `${name} holds the key`).toBe(false);
    const files = await filesOf(workDir(sessionId));
    expect(files.some((file) => file.includes('/.git/'))).toBe(true);
    for (const file of files) {
      const content = await readFile(file, 'utf8');
      for (const trace of traces) expect(content.includes(trace), file).toBe(false);
    }
    const { stdout: dump } = await run('pg_dump', ['--data-only', s.t.url], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    expect(dump.length).toBeGreaterThan(0);
    for (const trace of traces) expect(dump.includes(trace)).toBe(false);
  }, 120_000);

  it('a key the server does not know fails the run before any model call, naming authentication', async () => {
    const { runId, sessionId } = await startRun('STRANGER_KEY', [{ finish: 'never reached' }]);
    const finished = await waitForRun(s.t.db, runId, undefined, 60_000);
    expect(finished.status).toBe('failed');
    expect(finished.error).toMatch(/^workspace: .*refused the credentials \(authentication failed\)/);
    for (const trace of keyTraces(stranger.privateKey, key.privateKey)) expect(finished.error).not.toContain(trace);
    expect((await loadSessionEvents(s.worker.pool, sessionId)).map((e) => e.type)).toEqual(['run.finished']);
    expect(Number(finished.spentTokens)).toBe(0);
    expect(Number(finished.spentCostMicros)).toBe(0);
  }, 60_000);
});
