import type { Db, Prisma } from '@looplane/db';
import { appendEvents } from '../testing/fixtures';

/** Begins the log of a run's main session (`run.started`, as the worker writes it), so it can be forked at event 1. Returns the session. */
export async function beginSessionLog(db: Db, runId: string): Promise<string> {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true } });
  const session = await db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
  await appendEvents(db, runId, session.id, [{ type: 'run.started', payload: { goal: run.goal, config: session.config as Prisma.InputJsonValue } }]);
  return session.id;
}

/** Finishes a begun branch (its log and its row), for `sessions.resume`. */
export async function finishSessionLog(db: Db, sessionId: string): Promise<void> {
  const { runId } = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { runId: true } });
  await appendEvents(db, runId, sessionId, [{ type: 'run.finished', payload: { status: 'succeeded', result: 'done' } }]);
  await db.session.update({ where: { id: sessionId }, data: { status: 'succeeded', result: 'done' } });
}

/**
 * Appends a call that recorded a workspace commit to a begun branch; returns the seq of its
 * `tool.finished`, for `sessions.callDiff`. The commit is not in the store, so the answer is a
 * diff-less reason: still an answer, which is all authorization needs.
 */
export async function appendCommittedCall(db: Db, sessionId: string): Promise<number> {
  const { runId } = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { runId: true } });
  const args = { path: 'a.txt', content: 'a' };
  await appendEvents(db, runId, sessionId, [
    { type: 'tool.requested', payload: { callId: 'call-matrix', requestId: 'req-matrix', name: 'write_file', args } },
    { type: 'tool.started', payload: { callId: 'call-matrix', name: 'write_file', args, attempt: 1 } },
    { type: 'tool.finished', payload: { callId: 'call-matrix', ok: true, output: 'written', truncated: false, commit: 'a'.repeat(40) } },
  ]);
  return 4;
}

/**
 * Records that a begun branch was seeded (`workspace.seeded` naming a commit that is not in the
 * store): its patch is the empty series, since nothing changed after the seed, which needs no
 * store read; still an answer, which is all authorization needs.
 */
export async function appendSeed(db: Db, sessionId: string): Promise<void> {
  const { runId } = await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { runId: true } });
  await appendEvents(db, runId, sessionId, [
    { type: 'workspace.seeded', payload: { source: 'git', commit: 'b'.repeat(40), files: 1, bytes: 1, url: 'https://git.example.test/a.git' } },
  ]);
}

/** A pending approval on the run's main session at request `seq`, as the worker opens one. */
export async function openApproval(db: Db, runId: string, seq: number): Promise<string> {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { teamId: true, mainSessionId: true } });
  const row = await db.approval.create({
    data: {
      teamId: run.teamId,
      runId,
      sessionId: run.mainSessionId!,
      requestSeq: seq,
      toolCallId: `call-${seq}`,
      tool: 'shell',
      args: { command: 'rm -rf build' },
    },
  });
  return row.id;
}
