import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch, type ApiDeps } from '@looplane/api';
import { callerAs, createTeamFixture, createTestLive, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logProblems } from '../testing/log-invariants';
import { setUpRuntimeSuite, waitForRun, sandboxCatalogue } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { lazyEgressSource } from './test-egress-source';

/**
 * Undo: `sessions.restore` through the real API caller, applied by the real worker in its bwrap
 * workspaces. A scripted run writes, edits and deletes files over several events; restoring to an
 * earlier event gives exactly that event's files (read back through `sessions.files`, from the
 * store), a restored path changes only that path, a finished run finishes again as it was without
 * a model call, and a waiting run applies it at its next step boundary.
 */
const root = mkdtempSync(join(tmpdir(), 'looplane-restore-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('workspace-restore', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

let fx: TeamFixture;
let deps: ApiDeps;
/** The API wired to a queue nobody consumes: forks made through it stay idle. */
let idle: ApiDeps;
let idleLive: TestLive;
let pool: PgPool;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  // Every call runs but `cat`, which waits for an approver (the waiting case).
  const document = {
    version: 1,
    name: 'restore',
    default: 'allow',
    rules: [{ id: 'ask-cat', match: { tool: 'shell', commands: ['cat'] }, outcome: 'require_approval' }],
  };
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'restore', activeVersion: 1, versions: { create: { version: 1, document } } } });
  pool = createPgPool(s.t.url, { max: 4 });
  const workspaces = new WorkspaceReader({ store: new PostgresWorkspaceStore(pool), cacheDir: join(root, 'reader') });
  deps = { db: s.t.db, dispatch: createDispatch(s.client.queue, s.client.bus), workspaces };
  idleLive = await createTestLive();
  idle = { ...deps, dispatch: idleLive.dispatch };
});
afterAll(async () => {
  await idleLive?.close();
  await pool?.end();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

const as = (role: 'viewer' | 'operator' | 'approver', api = deps) => callerAs(api, { userId: fx.members[role].id });

const catalogue = () => sandboxCatalogue(s.worker.sandbox!);

async function startRun(script: ScriptTurn[]) {
  const agent = await createTestAgent(s.t.db, fx.teamId, { script });
  const ids = await createTestRun(s.t.db, agent, { config: { tools: catalogue(), toolLoading: 'eager' } });
  await s.client.enqueue({ ...ids, reason: 'start' });
  return ids;
}

const write = (path: string, content: string) => ({ calls: [{ tool: 'write_file', args: { path, content } }] });
const shell = (command: string) => ({ calls: [{ tool: 'shell', args: { command } }] });
const eventsOf = (sessionId: string) => s.t.db.event.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
const finishedSeqs = async (sessionId: string) => (await eventsOf(sessionId)).filter((e) => e.type === 'tool.finished').map((e) => e.seq);

/** Every file of a branch's workspace at an event (default: its latest), path → content, read through `sessions.files`. */
async function filesAt(sessionId: string, atEvent?: number): Promise<Record<string, string>> {
  const api = await as('viewer');
  const out: Record<string, string> = {};
  const walk = async (path: string) => {
    const { node } = await api.sessions.files({ teamId: fx.teamId, sessionId, path, ...(atEvent ? { atEvent } : {}) });
    if (node.kind === 'file') out[node.path] = `${node.encoding}:${node.content}`;
    else for (const entry of node.entries) await walk(entry.path);
  };
  await walk('');
  return out;
}

/** Waits until every restore request of the session is settled, and its row is `status` (and unleased). */
async function settled(sessionId: string, status: string) {
  return waitFor(
    async () => {
      const pending = await s.t.db.workspaceRestore.count({ where: { sessionId, appliedAt: null } });
      const row = await s.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
      return pending === 0 && row.status === status && row.leaseOwner === null ? row : undefined;
    },
    30_000,
    `the restores of ${sessionId} to be applied and the session ${status}`,
  );
}

/** Writes, edits and deletes over five calls, then finishes: the events whose files are restored. */
const history: ScriptTurn[] = [
  write('a.txt', 'one\n'),
  shell("mkdir -p src && printf 'export const b = 1;\\n' > src/b.ts && printf '\\000\\001\\002' > data.bin"),
  { calls: [{ tool: 'edit_file', args: { path: 'a.txt', old_string: 'one', new_string: 'two' } }] },
  shell("rm src/b.ts && mkdir -p docs && echo hello > docs/c.md && printf 'x' > data.bin"),
  write('late.txt', 'late\n'),
  { finish: 'all written' },
];

describe('sessions.restore through the worker (real bwrap)', () => {
  let run: { runId: string; sessionId: string };
  let calls: number[];

  beforeAll(async () => {
    run = await startRun(history);
    expect((await waitForRun(s.t.db, run.runId, undefined, 60_000)).status).toBe('succeeded');
    calls = await finishedSeqs(run.sessionId);
    expect(calls).toHaveLength(5);
  }, 90_000);

  it('restores the whole workspace of a finished run to an early event: exactly that event’s files, finished again as it was, no model call', async () => {
    const early = await filesAt(run.sessionId, calls[1]);
    expect(Object.keys(early).sort()).toEqual(['a.txt', 'data.bin', 'src/b.ts']);
    expect(await filesAt(run.sessionId)).not.toEqual(early);
    const before = await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    const modelCalls = await s.t.db.event.count({ where: { runId: run.runId, type: 'model.requested' } });

    const asked = await (await as('operator')).sessions.restore({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: calls[1]! });
    expect(asked).toMatchObject({
      sessionId: run.sessionId,
      runId: run.runId,
      atEvent: calls[1],
      paths: null,
      reopened: true,
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    await settled(run.sessionId, 'succeeded');

    expect(await filesAt(run.sessionId)).toEqual(early);
    const log = await eventsOf(run.sessionId);
    const [restored, finished] = log.slice(-2);
    expect(restored).toMatchObject({
      type: 'workspace.restored',
      payload: { requestId: asked.requestId, atEvent: calls[1], requestedBy: fx.members.operator.id, commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    // A new commit on the one before (the history stays append-only), holding the early files.
    expect((restored!.payload as { commit: string }).commit).not.toBe(asked.commit);
    // The outcome it had, stored as it was (a result that is the final answer names that answer).
    const original = log.find((e) => e.type === 'run.finished')!;
    expect(finished).toMatchObject({ type: 'run.finished', version: original.version, payload: original.payload });
    expect(finished!.payload).toEqual(original.payload);
    expect(log.filter((e) => e.type === 'run.resumed')).toEqual([]);
    expect(await s.t.db.event.count({ where: { runId: run.runId, type: 'model.requested' } })).toBe(modelCalls);
    const after = await s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect(after).toMatchObject({ status: 'succeeded', result: 'all written', spentTokens: before.spentTokens, spentCostMicros: before.spentCostMicros });
    expect(await s.t.db.workspaceRestore.findUniqueOrThrow({ where: { id: asked.requestId } })).toMatchObject({
      appliedSeq: restored!.seq,
      commit: (restored!.payload as { commit: string }).commit,
      error: null,
    });
    const audit = await s.t.db.auditLog.findFirstOrThrow({ where: { teamId: fx.teamId, action: 'session.restored', targetId: run.sessionId } });
    expect(audit).toMatchObject({
      actorId: fx.members.operator.id,
      data: expect.objectContaining({ requestId: asked.requestId, atEvent: calls[1], reopened: true }),
    });
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);

    // A fork at the restore starts from the restored files (its log names them, not a call's).
    const fork = await (await as('operator', idle)).sessions.fork({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: restored!.seq });
    expect(await filesAt(fork.sessionId)).toEqual(early);
  }, 60_000);

  it('restores single paths: a file as it was, a directory that did not exist then removed, nothing else changed', async () => {
    const before = await filesAt(run.sessionId);
    const api = await as('operator');
    // a.txt after the edit ('two'); src as it was after the deletion (gone).
    await api.sessions.restore({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: calls[2]!, paths: ['a.txt'] });
    // Made while the worker may be applying the first: applied in the same job, or (when that job
    // was finishing the session already) by the next one, which the finishing job reopens it for.
    await api.sessions.restore({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: calls[4]!, paths: ['src'] });
    await settled(run.sessionId, 'succeeded');
    const { 'a.txt': _a, 'src/b.ts': _b, ...rest } = before;
    expect(await filesAt(run.sessionId)).toEqual({ ...rest, 'a.txt': 'utf8:two\n' });
    const log = await eventsOf(run.sessionId);
    const mine = log.slice(log.findIndex((e) => e.type === 'workspace.restored' && (e.payload as { paths?: string[] }).paths?.[0] === 'a.txt'));
    expect(mine.filter((e) => e.type === 'workspace.restored').map((e) => (e.payload as { paths?: string[] }).paths)).toEqual([['a.txt'], ['src']]);
    expect(mine.at(-1)).toMatchObject({ type: 'run.finished', payload: log.find((e) => e.type === 'run.finished')!.payload });
    expect(mine.every((e) => e.type === 'workspace.restored' || (e.type === 'run.finished' && (e.payload as { status: string }).status === 'succeeded'))).toBe(
      true,
    );
    expect(await logProblems(s.t.db, run.runId)).toEqual([]);
  }, 60_000);

  it('a waiting run applies a restore at its next step boundary and goes on from the restored files', async () => {
    const waiting = await startRun([write('a.txt', 'v1\n'), write('a.txt', 'v2\n'), shell('cat a.txt'), { finish: 'read it' }]);
    const approval = await waitFor(
      () => s.t.db.approval.findFirst({ where: { runId: waiting.runId, status: 'pending' } }).then((a) => a ?? undefined),
      30_000,
      'the cat to wait',
    );
    const [v1] = await finishedSeqs(waiting.sessionId);
    const asked = await (await as('operator')).sessions.restore({ teamId: fx.teamId, sessionId: waiting.sessionId, atEvent: v1! });
    expect(asked.reopened).toBe(false);
    await settled(waiting.sessionId, 'waiting');
    expect(await filesAt(waiting.sessionId)).toEqual({ 'a.txt': 'utf8:v1\n' });
    await (await as('approver')).approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve' });
    expect((await waitForRun(s.t.db, waiting.runId, undefined, 30_000)).status).toBe('succeeded');
    const log = await eventsOf(waiting.sessionId);
    const cat = log.filter((e) => e.type === 'tool.finished').at(-1)!.payload as { output: string };
    expect(cat.output).toContain('v1');
    expect(cat.output).not.toContain('v2');
    expect(log.findIndex((e) => e.type === 'workspace.restored')).toBeLessThan(
      log.findIndex((e) => e.type === 'tool.started' && (e.payload as { name: string }).name === 'shell'),
    );
    expect(log.filter((e) => e.type === 'run.finished')).toHaveLength(1);
    expect(await logProblems(s.t.db, waiting.runId)).toEqual([]);
  }, 90_000);

  it('refuses a viewer, another team’s session and an event past the log, recording nothing', async () => {
    const foreignAgent = await createTestAgent(s.t.db, fx.otherTeamId, { script: [{ finish: 'x' }] });
    const foreign = await createTestRun(s.t.db, foreignAgent);
    const count = () => s.t.db.workspaceRestore.count();
    const before = await count();
    await expect((await as('viewer')).sessions.restore({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: 1 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect((await as('operator')).sessions.restore({ teamId: fx.teamId, sessionId: foreign.sessionId, atEvent: 1 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const { lastSeq } = await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } });
    await expect((await as('operator')).sessions.restore({ teamId: fx.teamId, sessionId: run.sessionId, atEvent: lastSeq + 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: `Session ${run.sessionId} has ${lastSeq} committed event(s); atEvent must be between 1 and ${lastSeq}`,
    });
    expect(await count()).toBe(before);
    expect((await s.t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).status).toBe('succeeded');
  });
});
