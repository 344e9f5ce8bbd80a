import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, SecretBox, loadSessionEvents, type PgPool } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import { DELIVERY_TOOL_SPECS, type ScriptTurn } from '@looplane/engine';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createBareRepository, startGitHttpServer, type GitHttpServer } from '@looplane/testkit/git-servers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../build.mjs';
import { auditRuns, spawnWorker, type WorkerProcess } from '../testing/fault-harness';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { createToolCallsTable } from '../testing/test-tools';

/**
 * Fault test: a worker process killed -9 in the middle of `publish_branch`'s push, with the
 * git server holding the push's `git-receive-pack` request. The push lands once or not at all,
 * never as a partial ref: whether the killed worker's git finished it (the server served the
 * held request) or it never reached the repository (the server refused it), the run finishes
 * after a new worker re-runs the idempotent call on the approval already given, and the branch
 * is one commit holding exactly the session's files on the commit the run started from.
 */

const KEY = randomBytes(32).toString('base64');
const TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const FILES = { 'README.md': '# widgets\n', 'src/widget.js': 'module.exports = () => 41;\n' };
const FIXED = 'module.exports = () => 42;\n';
const root = mkdtempSync(join(tmpdir(), 'looplane-push-crash-'));
// Sandbox uids must traverse down to their workspace.
chmodSync(root, 0o711);
const prefix = uniquePrefix('push-crash');
const workers = new Set<WorkerProcess>();
let spawned = 0;
let bundle: string;
let t: TestDatabase;
let pool: PgPool;
let client: TestClient;
let fx: TeamFixture;

const api = () => ({ db: t.db, dispatch: createDispatch(client.queue, client.bus) });
const run = promisify(execFile);

/** A worker process with the production bundle; every one of them shares this host's workspace root. */
async function startWorker(): Promise<WorkerProcess> {
  const worker = spawnWorker(
    {
      DATABASE_URL: t.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: prefix,
      LOOPLANE_ENCRYPTION_KEY: KEY,
      LOOPLANE_SANDBOX_DRIVER: 'bwrap',
      LOOPLANE_HOME: join(root, 'home'),
      LOOPLANE_WORKSPACE_ROOT: join(root, 'workspaces'),
      WORKER_CONCURRENCY: '4',
      LEASE_TTL_MS: '1500',
      RECONCILE_INTERVAL_MS: '300',
      RECONCILE_IDLE_MS: '3000',
      DATABASE_POOL_SIZE: '6',
    },
    join(root, `worker-${++spawned}.log`),
    [],
    bundle,
  );
  workers.add(worker);
  void worker.exited.then(() => workers.delete(worker));
  await Promise.race([
    worker.ready,
    worker.exited.then(() => Promise.reject(new Error(`the worker exited before it was ready:\n${worker.output().slice(-2000)}`))),
  ]);
  return worker;
}

async function kill(worker: WorkerProcess): Promise<void> {
  worker.child.kill('SIGKILL');
  await worker.exited;
}

beforeAll(async () => {
  bundle = (await buildWorker())['worker-with-test-tools'];
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 4 });
  await createToolCallsTable(pool);
  client = await createTestClient(prefix);
  fx = await createTeamFixture(t.db);
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
  await t.db.teamSecret.create({
    data: { teamId: fx.teamId, name: 'REPO_TOKEN', kind: 'token', ciphertext: new SecretBox(KEY).seal(TOKEN), last4: TOKEN.slice(-4) },
  });
}, 120_000);

afterEach(async () => {
  await Promise.all([...workers].map(kill));
});

afterAll(async () => {
  await client?.close();
  await pool?.end();
  await t?.drop();
  await rm(root, { recursive: true, force: true });
});

const SCRIPT: ScriptTurn[] = [
  { calls: [{ tool: 'load_tools', args: { names: ['write_file', 'publish_branch'] } }] },
  {
    calls: [
      { tool: 'write_file', args: { path: 'src/widget.js', content: FIXED } },
      { tool: 'write_file', args: { path: 'NOTES.md', content: 'added\n' } },
    ],
  },
  { calls: [{ tool: 'publish_branch', args: { branch: 'fix/widget', message: 'Fix the widget' } }] },
  { finish: 'done' },
];

/** The sandbox's write_file as the agent's catalogue lists it. */
const WRITE_FILE = {
  name: 'write_file',
  description: 'Write a file.',
  idempotent: false,
  parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
};

/** A run of the script on `url` through runs.create, and its approval of the push given through approvals.decide. */
async function startApprovedRun(url: string): Promise<{ runId: string; sessionId: string }> {
  const { endpointId } = await createTestAgent(t.db, fx.teamId, { script: SCRIPT });
  const operator = await callerAs(api(), { userId: fx.members.operator.id });
  const publish = DELIVERY_TOOL_SPECS.filter((spec) => spec.name === 'publish_branch').map((spec) => ({ ...spec }));
  const agent = await operator.agents.create({
    teamId: fx.teamId,
    name: `push-${randomBytes(3).toString('hex')}`,
    endpointId,
    tools: [WRITE_FILE, ...publish],
  });
  const { runId } = await operator.runs.create({ teamId: fx.teamId, agentId: agent.id, goal: 'Fix it', workspace: { git: { url, secretRef: 'REPO_TOKEN' } } });
  const approval = await waitFor(
    async () => {
      const ended = await t.db.run.findFirst({ where: { id: runId, status: { in: ['succeeded', 'failed', 'cancelled'] } } });
      if (ended) throw new Error(`the run ended ${ended.status} before asking to push: ${ended.error}`);
      return (await t.db.approval.findMany({ where: { runId, status: 'pending' } }))[0];
    },
    60_000,
    'the push approval',
  );
  expect(approval.tool).toBe('publish_branch');
  const approver = await callerAs(api(), { userId: fx.members.approver.id });
  await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve' });
  return { runId, sessionId: (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).mainSessionId! };
}

/** Where `ref` points in the bare repository, or undefined. */
async function refOf(repoPath: string, ref: string): Promise<string | undefined> {
  const { stdout } = await run('git', ['--git-dir', repoPath, 'for-each-ref', '--format=%(objectname)', ref], { encoding: 'utf8' });
  return stdout.trim() || undefined;
}

/** The receive-pack requests `git http-backend` answered: pushes that reached the repository (each landed or was refused there). */
const servedPushes = (server: GitHttpServer) => server.requests.filter((r) => r.path.endsWith('/git-receive-pack') && r.status === 200).length;

interface Crash {
  repoPath: string;
  seed: string;
  server: GitHttpServer;
  runId: string;
  sessionId: string;
}

/**
 * A repository and a git server holding pushes, a worker that runs the approved push until the
 * server holds it, and that worker killed -9 right then: its push is in flight, its call started.
 */
async function crashMidPush(name: string): Promise<Crash> {
  const repos = join(root, name);
  const seed = (await createBareRepository(repos, 'acme/widgets', FILES)).headCommit;
  const server = await startGitHttpServer({ root: repos, users: { 'x-access-token': TOKEN }, holdReceivePack: true });
  const first = await startWorker();
  const { runId, sessionId } = await startApprovedRun(server.url('acme/widgets'));
  await waitFor(() => server.heldReceivePacks() > 0, 60_000, 'the push to reach the server');
  await kill(first);
  // The call's start is in the log: the next worker resumes it (an idempotent call) without a new approval.
  const last = await t.db.event.findFirst({ where: { sessionId }, orderBy: { seq: 'desc' } });
  expect(last).toMatchObject({ type: 'tool.started', payload: { name: 'publish_branch' } });
  return { repoPath: join(repos, 'acme/widgets.git'), seed, server, runId, sessionId };
}

/** Everything the branch and the run must be after the crash, whichever way the push went; the branch's commit and the push's output. */
async function expectOneCleanPush(crash: Crash): Promise<{ tip: string; output: { ok: boolean; output: string } }> {
  const { repoPath, seed, runId, sessionId } = crash;
  const git = async (...args: string[]) => (await run('git', ['--git-dir', repoPath, ...args], { encoding: 'utf8' })).stdout.trim();
  const finished = await waitFor(
    async () => t.db.run.findFirst({ where: { id: runId, status: { in: ['succeeded', 'failed', 'cancelled'] } } }).then((r) => r ?? undefined),
    90_000,
    `run ${runId} to finish`,
  );
  expect(finished.status, finished.error ?? '').toBe('succeeded');
  // Exactly one new branch, one commit on the seeded commit (nothing stacked), with the session's files.
  expect((await git('for-each-ref', '--format=%(refname)', 'refs/heads/')).split('\n')).toEqual(['refs/heads/fix/widget', 'refs/heads/main']);
  expect(await git('rev-parse', 'refs/heads/main')).toBe(seed);
  const tip = await git('rev-parse', 'refs/heads/fix/widget');
  expect(await git('rev-list', `${seed}..${tip}`)).toBe(tip);
  expect(await git('rev-parse', `${tip}^`)).toBe(seed);
  expect((await git('ls-tree', '-r', '--name-only', tip)).split('\n')).toEqual(['NOTES.md', 'README.md', 'src/widget.js']);
  expect(await git('show', `${tip}:src/widget.js`)).toBe(FIXED.trim());
  expect(await git('show', `${tip}:README.md`)).toBe(FILES['README.md'].trim());
  // Every object the ref names is there: a whole push, not a partial one.
  await run('git', ['--git-dir', repoPath, 'fsck', '--no-progress', '--connectivity-only']);
  // The approval given before the crash held: the re-run asked no one again.
  expect(await t.db.approval.count({ where: { runId } })).toBe(1);
  expect(await t.db.event.count({ where: { runId, type: 'approval.requested' } })).toBe(1);
  expect((await auditRuns(t.db, pool, [runId])).logProblems).toEqual([]);
  // One start of the push in the log: the new worker resumed the call it found started, and it finished once.
  const events = await loadSessionEvents(pool, sessionId);
  const starts = events.filter((e) => e.type === 'tool.started' && (e.payload as { name: string }).name === 'publish_branch');
  expect(starts).toHaveLength(1);
  const callId = (starts[0]!.payload as { callId: string }).callId;
  const ends = events.filter((e) => (e.type === 'tool.finished' || e.type === 'tool.interrupted') && (e.payload as { callId: string }).callId === callId);
  expect(ends.map((e) => e.type)).toEqual(['tool.finished']);
  return { tip, output: ends[0]!.payload as { ok: boolean; output: string } };
}

describe('fault: kill -9 of the worker while publish_branch pushes (real worker processes, bwrap, git http-backend)', () => {
  it('a push the killed worker’s git finished is found by the re-run and not pushed again', { timeout: 240_000 }, async () => {
    const crash = await crashMidPush('landed');
    try {
      // kill -9 ends the worker's process alone: its git lives on and finishes the push once the server takes it.
      crash.server.releaseReceivePack('serve');
      const landed = await waitFor(() => refOf(crash.repoPath, 'refs/heads/fix/widget'), 30_000, 'the held push to land');
      await startWorker();
      const { tip, output } = await expectOneCleanPush(crash);
      expect(tip).toBe(landed);
      expect(servedPushes(crash.server)).toBe(1);
      expect(output).toMatchObject({
        ok: true,
        output: expect.stringContaining(`fix/widget on ${crash.server.url('acme/widgets')} already holds these files (at ${landed})`),
      });
    } finally {
      await crash.server.close();
    }
  });

  it('a push that never reached the repository is pushed once after the restart', { timeout: 240_000 }, async () => {
    const crash = await crashMidPush('refused');
    try {
      crash.server.releaseReceivePack('refuse');
      expect(await refOf(crash.repoPath, 'refs/heads/fix/widget')).toBeUndefined();
      await startWorker();
      const { tip, output } = await expectOneCleanPush(crash);
      expect(servedPushes(crash.server)).toBe(1);
      expect(output).toMatchObject({ ok: true, output: expect.stringContaining(`Pushed fix/widget to ${crash.server.url('acme/widgets')} at ${tip}`) });
    } finally {
      await crash.server.close();
    }
  });

  it('a push still in flight when the new worker pushes again lands once, and the re-run reports the branch it finds', { timeout: 240_000 }, async () => {
    const crash = await crashMidPush('raced');
    try {
      // The new worker's re-run pushes too, before the killed worker's push is through: both are held.
      await startWorker();
      await waitFor(() => crash.server.heldReceivePacks() === 2, 60_000, 'the re-run to push');
      crash.server.releaseReceivePack('serve', 1);
      const landed = await waitFor(() => refOf(crash.repoPath, 'refs/heads/fix/widget'), 30_000, 'the first push to land');
      // The re-run's push creates a branch that now exists: the repository refuses it.
      crash.server.releaseReceivePack('serve');
      const { tip, output } = await expectOneCleanPush(crash);
      expect(tip).toBe(landed);
      expect(servedPushes(crash.server)).toBe(2);
      expect(output).toMatchObject({
        ok: true,
        output: expect.stringContaining(`fix/widget on ${crash.server.url('acme/widgets')} already holds these files (at ${landed})`),
      });
    } finally {
      await crash.server.close();
    }
  });
});
