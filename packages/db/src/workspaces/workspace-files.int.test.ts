import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSessions, releaseSession, renewLeases } from '../runs/lease.repository';
import { createPgPool, type PgPool } from '../runs/pg-pool';
import { loadSessionContexts } from '../runs/session-context.repository';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from '../runs/testing/run-fixtures';
import { commitEventCount, commitEvents, lastCommitIn, workspaceOrigin } from './commit-events.repository';
import { pendingRestores, reopenForRestores, settleRestoresStatement } from './restore.repository';

/**
 * Session files as the log records them, against real Postgres: a `workspace.restored` moves the
 * files like a mutating call's `tool.finished`, and restore requests go from pending to settled
 * once, reopening a finished session that still has one.
 */
let t: TestDatabase;
let pool: PgPool;
let agent: TestAgent;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
  agent = await createTestAgent(t.db, await createTestTeam(t.db));
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

const c = (ch: string) => ch.repeat(40);

/** Appends events to a session's log as the worker's flush would (seq and eventNo in order). */
async function log(run: { runId: string; sessionId: string }, events: { type: string; payload: object }[]): Promise<void> {
  const last = await t.db.session.findUniqueOrThrow({ where: { id: run.sessionId }, select: { lastSeq: true } });
  let seq = last.lastSeq;
  for (const event of events) {
    seq++;
    await t.db.event.create({ data: { runId: run.runId, sessionId: run.sessionId, seq, eventNo: BigInt(seq), type: event.type, payload: event.payload } });
  }
  await t.db.session.update({ where: { id: run.sessionId }, data: { lastSeq: seq } });
}

const call = (callId: string, commit?: string) => [
  { type: 'tool.requested', payload: { callId, requestId: 'r', name: 'write_file', args: { path: `${callId}.txt` } } },
  { type: 'tool.finished', payload: { callId, ok: true, output: 'ok', truncated: false, ...(commit ? { commit } : {}) } },
];
const restored = (atEvent: number, commit: string, paths?: string[]) => ({
  type: 'workspace.restored',
  payload: { requestId: 'q', atEvent, commit, requestedBy: 'u', ...(paths ? { paths } : {}) },
});

describe('the events that move a session’s files', () => {
  it('count a restore as a commit, after which it is where the files are', async () => {
    const run = await createTestRun(t.db, agent);
    await log(run, [...call('a', c('a')), ...call('read'), ...call('b', c('b')), restored(2, c('a'), ['b.txt']), ...call('cat')]);
    const link = { sessionId: run.sessionId, from: 0, upTo: 9 };
    expect(await lastCommitIn(pool, link)).toBe(c('a'));
    expect(await lastCommitIn(pool, { ...link, upTo: 6 })).toBe(c('b'));
    expect(await lastCommitIn(pool, { ...link, upTo: 1 })).toBeNull();
    expect(await commitEventCount(pool, link)).toBe(3);
    expect(await commitEvents(pool, link, 10)).toEqual([
      {
        seq: 2,
        type: 'tool.finished',
        commit: c('a'),
        callId: 'a',
        requestedSeq: 1,
        tool: 'write_file',
        args: { path: 'a.txt' },
        restoredFrom: null,
        paths: null,
      },
      {
        seq: 6,
        type: 'tool.finished',
        commit: c('b'),
        callId: 'b',
        requestedSeq: 5,
        tool: 'write_file',
        args: { path: 'b.txt' },
        restoredFrom: null,
        paths: null,
      },
      { seq: 7, type: 'workspace.restored', commit: c('a'), callId: null, requestedSeq: null, tool: null, args: null, restoredFrom: 2, paths: ['b.txt'] },
    ]);
    expect(await workspaceOrigin(pool, run.sessionId)).toMatchObject({ runId: run.runId, target: c('a'), storedDepth: null, removedAt: null });
  });
});

describe('restore requests', () => {
  it('are pending until settled once, in the order they were made, and wake the session', async () => {
    const run = await createTestRun(t.db, agent);
    const make = (atEvent: number, paths: string[] = []) =>
      t.db.workspaceRestore.create({ data: { runId: run.runId, sessionId: run.sessionId, atEvent, paths, requestedById: 'u1' } });
    const first = await make(3);
    const second = await make(5, ['src']);
    expect((await loadSessionContexts(pool, [run.sessionId])).get(run.sessionId)).toMatchObject({ restorePending: true, inboxPending: false });
    const [claim] = await claimSessions(pool, [run.sessionId], 'w1', 30_000);
    expect(await renewLeases(pool, 'w1', [{ sessionId: run.sessionId, version: claim!.version }], 30_000)).toEqual([
      { sessionId: run.sessionId, held: true, cancelRequested: false, inboxPending: true },
    ]);
    expect(await pendingRestores(pool, run.sessionId)).toEqual([
      { id: first.id, atEvent: 3, sourceCommit: null, paths: [], requestedById: 'u1' },
      { id: second.id, atEvent: 5, sourceCommit: null, paths: ['src'], requestedById: 'u1' },
    ]);
    await pool.query(settleRestoresStatement([{ id: first.id, seq: 9, commit: c('e'), error: null }]));
    // Settling again (a repeat after a crash) changes nothing.
    await pool.query(settleRestoresStatement([{ id: first.id, seq: null, commit: null, error: 'late' }]));
    expect(await t.db.workspaceRestore.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ appliedSeq: 9, commit: c('e'), error: null });
    expect((await pendingRestores(pool, run.sessionId)).map((r) => r.id)).toEqual([second.id]);
    const release = await releaseSession(
      pool,
      { sessionId: run.sessionId, owner: 'w1', version: claim!.version },
      { status: 'waiting', waitReason: 'approval', runStatus: null },
    );
    expect(release).toMatchObject({ released: true, inboxPending: true });
    await pool.query(settleRestoresStatement([{ id: second.id, seq: null, commit: null, error: 'the files were removed' }]));
    expect(await pendingRestores(pool, run.sessionId)).toEqual([]);
    expect((await loadSessionContexts(pool, [run.sessionId])).get(run.sessionId)?.restorePending).toBe(false);
  });

  it('reopen a finished, unleased session only while one is pending', async () => {
    const run = await createTestRun(t.db, agent);
    await t.db.session.update({ where: { id: run.sessionId }, data: { status: 'succeeded' } });
    expect(await reopenForRestores(pool, run.sessionId)).toBeNull();
    const request = await t.db.workspaceRestore.create({ data: { runId: run.runId, sessionId: run.sessionId, atEvent: 1, requestedById: 'u1' } });
    await t.db.session.update({ where: { id: run.sessionId }, data: { leaseOwner: 'w1' } });
    expect(await reopenForRestores(pool, run.sessionId)).toBeNull();
    await t.db.session.update({ where: { id: run.sessionId }, data: { leaseOwner: null } });
    expect(await reopenForRestores(pool, run.sessionId)).toBe(run.runId);
    expect((await t.db.session.findUniqueOrThrow({ where: { id: run.sessionId } })).status).toBe('idle');
    // Not finished any more: nothing to reopen.
    expect(await reopenForRestores(pool, run.sessionId)).toBeNull();
    await pool.query(settleRestoresStatement([{ id: request.id, seq: 2, commit: c('f'), error: null }]));
    await t.db.session.update({ where: { id: run.sessionId }, data: { status: 'failed' } });
    expect(await reopenForRestores(pool, run.sessionId)).toBeNull();
  });
});
