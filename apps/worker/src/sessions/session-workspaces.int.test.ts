import { readdir, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, loadSessionEvents, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import { fold } from '@looplane/engine';
import { WorkspaceManager } from '@looplane/sandbox';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { ModelFactory } from '../ports/model-factory';
import { startRuntime, type Runtime } from '../runtime/runtime';
import { waitForRun } from '../testing/runtime-suite';
import { createTestClient, testRedisUrl, uniquePrefix, waitFor, type TestClient } from '../testing/test-runtime';
import { ToolRegistry } from '../tools/tool-registry';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import { SessionWorkspaces } from './session-workspaces';

/**
 * Workspaces through the store, with real WorkspaceManagers (git, no sandbox needed) and a real
 * worker whose `write` tool prepares the session's workspace through {@link SessionWorkspaces},
 * writes a file and records the commit on `tool.finished`, as the sandbox's file tools do. Each
 * job runs on a "host" of its own (a fresh workspace root per job), so nothing carries over on disk.
 */
let t: TestDatabase;
let pool: PgPool;
let root: string;
let sessionWorkspaces: SessionWorkspaces;
let hosts = 0;
/** A new empty host for every job: its workspace root shares nothing with the ones before. */
const prepared = new Map<string, WorkspaceManager>();
let runtime: Runtime;
let client: TestClient;
const connections: Redis[] = [];
let fx: TeamFixture;
let deps: ApiDeps;

const writeSpec = [{ name: 'write', description: 'Write a file in the workspace.', idempotent: false }];
const write = (path: string, text: string) => ({ calls: [{ tool: 'write', args: { path, text } }] });

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 10 });
  root = await mkdtemp(join(tmpdir(), 'looplane-fork-ws-'));
  const store = new PostgresWorkspaceStore(pool);
  sessionWorkspaces = new SessionWorkspaces(pool, store);
  const tools = new ToolRegistry().register('write', async (args, _call, context) => {
    let host = prepared.get(context.sessionId);
    if (!host) {
      host = new WorkspaceManager({ root: join(root, `host-${++hosts}`), persist: sessionWorkspaces.persist });
      await sessionWorkspaces.prepare(host, context.sessionId);
      prepared.set(context.sessionId, host);
    }
    const workspace = await host.get(context.sessionId);
    await writeFile(join(workspace.path, String(args.path)), String(args.text));
    const { commit } = await host.commit(context.sessionId, `write ${String(args.path)}`);
    return { ok: true, output: `wrote ${String(args.path)}`, commit };
  });
  tools.onSessionEnd(async ({ sessionId }) => void prepared.delete(sessionId));
  const connect = async () => {
    const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    await redis.connect();
    connections.push(redis);
    return redis;
  };
  const prefix = uniquePrefix('fork-ws');
  runtime = await startRuntime({
    pool,
    redis: await connect(),
    publisher: await connect(),
    subscriber: await connect(),
    queuePrefix: prefix,
    workerId: `w_fork_ws_${process.pid}`,
    concurrency: 5,
    leaseTtlMs: 30_000,
    reconcileIntervalMs: 60_000,
    drainMs: 1000,
    tools,
    models: new ModelFactory(undefined),
    logger: createLogger({ level: 'silent' }),
  });
  client = await createTestClient(prefix);
  fx = await createTeamFixture(t.db);
  const policy = await t.db.policy.create({ data: { teamId: fx.teamId, name: 'writes', activeVersion: 1 } });
  const document = { version: 1, name: 'writes', default: 'deny', rules: [{ id: 'write', match: { tool: 'write' }, outcome: 'allow' }] };
  await t.db.policyVersion.create({ data: { policyId: policy.id, version: 1, document } });
  deps = { db: t.db, dispatch: createDispatch(client.queue, client.bus), workspaces: new WorkspaceReader({ store, cacheDir: join(root, 'reader') }) };
});
afterAll(async () => {
  await runtime?.close();
  await client?.close();
  for (const redis of connections) await redis.quit();
  await pool?.end();
  await t?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The session's files on a new host, restored from the store at its recorded commit. */
async function files(sessionId: string): Promise<Record<string, string>> {
  const host = new WorkspaceManager({ root: join(root, `reader-host-${++hosts}`) });
  const { path } = await sessionWorkspaces.prepare(host, sessionId);
  const names = (await readdir(path)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(path, n), 'utf8')] as const)));
}

describe('a fork’s workspace', () => {
  it('starts at the parent’s commit at the fork point; what the parent wrote later is absent; the diff shows both sides', async () => {
    const agent = await createTestAgent(t.db, fx.teamId, {
      script: [write('a.txt', 'one'), write('b.txt', 'two'), write('late.txt', 'after the fork'), { finish: 'parent done' }],
    });
    // The branch runs on another endpoint (an agent override) whose script writes its own file from turn 2 on.
    const other = await createTestAgent(t.db, fx.teamId, {
      script: [{ finish: 'unused' }, { finish: 'unused' }, write('c.txt', 'branch file'), { finish: 'branch done' }],
    });
    const run = await createTestRun(t.db, agent, { config: { tools: writeSpec, toolLoading: 'eager' } });
    await client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(t.db, run.runId)).status).toBe('succeeded');
    const parent = await loadSessionEvents(pool, run.sessionId);
    const finished = parent.filter((e) => e.type === 'tool.finished');
    const commits = finished.map((e) => (e.payload as { commit?: string }).commit);
    expect(commits.every((c) => typeof c === 'string')).toBe(true);

    const api = await callerAs(deps, { userId: fx.members.operator.id });
    const at = finished[1]!.seq;
    const fork = await api.sessions.fork({
      teamId: fx.teamId,
      sessionId: run.sessionId,
      atEvent: at,
      message: 'Write c.txt instead.',
      agentOverrides: { endpointId: other.endpointId },
    });
    expect((await t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } })).workspaceCommit).toBe(commits[1]);
    await waitFor(
      async () => (await t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } })).status === 'succeeded' || undefined,
      20_000,
      'the branch',
    );

    const branchLog = await loadSessionEvents(pool, fork.sessionId);
    const forked = branchLog.find((e) => e.type === 'session.forked')!;
    expect((forked.payload as { config?: { model: { model: string } } }).config?.model.model).toBe('faux-1');
    // The result is the branch's final answer: the log names that answer instead of repeating it.
    expect(branchLog.at(-1)).toMatchObject({ type: 'run.finished', payload: { status: 'succeeded', resultSeq: expect.any(Number) } });
    expect(fold(branchLog).result).toBe('branch done');
    expect(await files(run.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two', 'late.txt': 'after the fork' });
    // The parent's state at the fork (a, b) plus the branch's own file; late.txt never reached it.
    expect(await files(fork.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two', 'c.txt': 'branch file' });
    const branchHead = (branchLog.filter((e) => e.type === 'tool.finished').at(-1)!.payload as { commit: string }).commit;

    const diff = await api.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: fork.sessionId });
    expect(diff.divergedAfter).toBe(at);
    expect(diff.commits).toEqual({ a: commits[2], b: branchHead });
    expect(diff.files).toContain('-after the fork');
    expect(diff.files).toContain('+branch file');
    expect(diff.files).not.toContain('a.txt');

    // A fork of the branch at its own first event takes the branch's workspace at the same commit.
    const grandchild = await api.sessions.fork({ teamId: fx.teamId, sessionId: fork.sessionId, atEvent: forked.seq });
    expect(grandchild.parentId).toBe(fork.sessionId);
    expect(await files(grandchild.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two' });
  });

  it('a commit that is in no store fails the session with the reason; it never starts empty', async () => {
    const agent = await createTestAgent(t.db, fx.teamId, { script: [write('x.txt', 'x'), { finish: 'done' }] });
    const other = await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'unused' }, write('y.txt', 'y'), { finish: 'branch done' }] });
    const run = await createTestRun(t.db, agent, { config: { tools: writeSpec, toolLoading: 'eager' } });
    await client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(t.db, run.runId)).status).toBe('succeeded');
    const finished = (await loadSessionEvents(pool, run.sessionId)).filter((e) => e.type === 'tool.finished');
    // The store loses the run's packs (not through retention, which would say so).
    await pool.query('DELETE FROM "WorkspacePack" WHERE "runId" = $1', [run.runId]);
    const api = await callerAs(deps, { userId: fx.members.operator.id });
    const fork = await api.sessions.fork({
      teamId: fx.teamId,
      sessionId: run.sessionId,
      atEvent: finished[0]!.seq,
      message: 'Go on.',
      agentOverrides: { endpointId: other.endpointId },
    });
    const branch = await waitFor(
      async () => {
        const row = await t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } });
        return row.status === 'failed' ? row : undefined;
      },
      20_000,
      'the branch to fail',
    );
    const last = (await loadSessionEvents(pool, fork.sessionId)).at(-1)!;
    expect(last).toMatchObject({ type: 'run.finished', payload: { status: 'failed', error: expect.stringMatching(/in no workspace store/) } });
    expect(branch.status).toBe('failed');
  });
});
