import { readdir, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, loadSessionEvents, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
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
import { createSessionWorkspace } from './fork-workspace';

/**
 * Workspaces at a fork, with a real WorkspaceManager (git, no sandbox needed) and a real worker
 * whose `write` tool creates the session's workspace through {@link createSessionWorkspace},
 * writes a file and records the commit on `tool.finished`, as the sandbox's file tools do.
 */
let t: TestDatabase;
let pool: PgPool;
let root: string;
let workspaces: WorkspaceManager;
let runtime: Runtime;
let client: TestClient;
let connections: Redis[] = [];
let fx: TeamFixture;
let deps: ApiDeps;

const writeSpec = [{ name: 'write', description: 'Write a file in the workspace.', idempotent: false }];
const write = (path: string, text: string) => ({ calls: [{ tool: 'write', args: { path, text } }] });

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 10 });
  root = await mkdtemp(join(tmpdir(), 'looplane-fork-ws-'));
  workspaces = new WorkspaceManager({ root });
  const tools = new ToolRegistry().register('write', async (args, _call, context) => {
    const workspace = await createSessionWorkspace(workspaces, pool, context.sessionId);
    await writeFile(join(workspace.path, String(args.path)), String(args.text));
    const { commit } = await workspaces.commit(context.sessionId, `write ${String(args.path)}`);
    return { ok: true, output: `wrote ${String(args.path)}`, commit };
  });
  const connect = async () => {
    const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    await redis.connect();
    connections.push(redis);
    return redis;
  };
  const prefix = uniquePrefix('fork-ws');
  runtime = await startRuntime({
    pool, redis: await connect(), publisher: await connect(), subscriber: await connect(), queuePrefix: prefix, workerId: `w_fork_ws_${process.pid}`,
    concurrency: 5, leaseTtlMs: 30_000, reconcileIntervalMs: 60_000, drainMs: 1000, tools, models: new ModelFactory(undefined), logger: createLogger({ level: 'silent' }),
  });
  client = await createTestClient(prefix);
  fx = await createTeamFixture(t.db);
  const policy = await t.db.policy.create({ data: { teamId: fx.teamId, name: 'writes', activeVersion: 1 } });
  const document = { version: 1, name: 'writes', default: 'deny', rules: [{ id: 'write', match: { tool: 'write' }, outcome: 'allow' }] };
  await t.db.policyVersion.create({ data: { policyId: policy.id, version: 1, document } });
  deps = { db: t.db, dispatch: createDispatch(client.queue, client.bus), workspaces };
});
afterAll(async () => {
  await runtime?.close();
  await client?.close();
  for (const redis of connections) await redis.quit();
  await pool?.end();
  await t?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function files(sessionId: string): Promise<Record<string, string>> {
  const { path } = await workspaces.get(sessionId);
  const names = (await readdir(path)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(path, n), 'utf8')] as const)));
}

describe('a fork’s workspace', () => {
  it('starts at the parent’s commit at the fork point; what the parent wrote later is absent; the diff shows both sides', async () => {
    const agent = await createTestAgent(t.db, fx.teamId, { script: [write('a.txt', 'one'), write('b.txt', 'two'), write('late.txt', 'after the fork'), { finish: 'parent done' }] });
    // The branch runs on another endpoint (an agent override) whose script writes its own file from turn 2 on.
    const other = await createTestAgent(t.db, fx.teamId, { script: [{ finish: 'unused' }, { finish: 'unused' }, write('c.txt', 'branch file'), { finish: 'branch done' }] });
    const run = await createTestRun(t.db, agent, { config: { tools: writeSpec, toolLoading: 'eager' } });
    await client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(t.db, run.runId)).status).toBe('succeeded');
    const parent = await loadSessionEvents(pool, run.sessionId);
    const finished = parent.filter((e) => e.type === 'tool.finished');
    const commits = finished.map((e) => (e.payload as { commit?: string }).commit);
    expect(commits.every((c) => typeof c === 'string')).toBe(true);

    const api = await callerAs(deps, { userId: fx.members.operator.id });
    const at = finished[1]!.seq;
    const fork = await api.sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: at, message: 'Write c.txt instead.', agentOverrides: { endpointId: other.endpointId } });
    expect((await t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } })).workspaceCommit).toBe(commits[1]);
    await waitFor(async () => (await t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } })).status === 'succeeded' || undefined, 20_000, 'the branch');

    const branchLog = await loadSessionEvents(pool, fork.sessionId);
    const forked = branchLog.find((e) => e.type === 'session.forked')!;
    expect((forked.payload as { config?: { model: { model: string } } }).config?.model.model).toBe('faux-1');
    expect(branchLog.at(-1)).toMatchObject({ type: 'run.finished', payload: { result: 'branch done' } });
    expect(await files(run.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two', 'late.txt': 'after the fork' });
    // The parent's state at the fork (a, b) plus the branch's own file; late.txt never reached it.
    expect(await files(fork.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two', 'c.txt': 'branch file' });
    // At its first commit's parent, the branch's history is exactly the parent's commit at the fork.
    const branchHead = (branchLog.filter((e) => e.type === 'tool.finished').at(-1)!.payload as { commit: string }).commit;
    expect(await workspaces.diff({ sessionId: run.sessionId, commit: commits[1]! }, { sessionId: fork.sessionId, commit: branchHead })).toContain('+branch file');

    const diff = await api.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: fork.sessionId });
    expect(diff.divergedAfter).toBe(at);
    expect(diff.commits).toEqual({ a: commits[2], b: branchHead });
    expect(diff.files).toContain('-after the fork');
    expect(diff.files).toContain('+branch file');
    expect(diff.files).not.toContain('a.txt');

    // A fork of the branch at its own first event takes the branch's workspace at the same commit.
    const grandchild = await api.sessions.fork({ teamId: fx.teamId, sessionId: fork.sessionId, atEvent: forked.seq });
    expect(grandchild.parentId).toBe(fork.sessionId);
    await createSessionWorkspace(workspaces, pool, grandchild.sessionId);
    expect(await files(grandchild.sessionId)).toEqual({ 'a.txt': 'one', 'b.txt': 'two' });
  });

  it('a workspace that is not on this host: the diff still returns the events, with files null and the reason', async () => {
    const agent = await createTestAgent(t.db, fx.teamId, { script: [write('x.txt', 'x'), { finish: 'done' }] });
    const run = await createTestRun(t.db, agent, { config: { tools: writeSpec, toolLoading: 'eager' } });
    await client.enqueue({ ...run, reason: 'start' });
    await waitForRun(t.db, run.runId);
    const api = await callerAs(deps, { userId: fx.members.viewer.id });
    const other = await callerAs({ ...deps, workspaces: new WorkspaceManager({ root: join(root, 'elsewhere') }) }, { userId: fx.members.viewer.id });
    const ok = await api.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: run.sessionId });
    expect(ok).toMatchObject({ files: '', filesReason: null });
    const missing = await other.sessions.diff({ teamId: fx.teamId, a: run.sessionId, b: run.sessionId });
    expect(missing.files).toBeNull();
    expect(missing.filesReason).toMatch(/not available here/);
    expect(missing.a.events).toEqual([]);
  });
});
