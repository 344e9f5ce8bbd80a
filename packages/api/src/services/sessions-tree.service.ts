import type { Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { replayMarkerOf } from './sessions-replay-report';

/**
 * The run's session tree: every branch with its fork point (parent and the parent's event seq it
 * inherits up to), status, own spend and event counts, and which branch is the main line. Ordered
 * by creation, so parents come before their children. One query per table, whatever the size.
 */
export async function sessionTree(db: Db, teamId: string, runId: string) {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { id: true, mainSessionId: true, rootSessionId: true, status: true } });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  const sessions = await db.session.findMany({
    where: { runId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      parentId: true,
      forkSeq: true,
      status: true,
      waitReason: true,
      title: true,
      lastSeq: true,
      costMicros: true,
      result: true,
      error: true,
      workspaceCommit: true,
      endpointId: true,
      createdById: true,
      createdAt: true,
      finishedAt: true,
      replay: true,
    },
  });
  return {
    runId: run.id,
    runStatus: run.status,
    rootSessionId: run.rootSessionId,
    mainSessionId: run.mainSessionId,
    sessions: sessions.map((s) => ({
      ...s,
      /** A replay branch's source session, start event, mode and overrides (`sessions.replay`); null otherwise. */
      replay: replayMarkerOf(s.replay),
      costMicros: Number(s.costMicros),
      isMain: s.id === run.mainSessionId,
      /** Events of its log, inherited ones included (its last seq). */
      eventCount: s.lastSeq,
      /** Events this branch wrote itself. */
      ownEventCount: s.lastSeq - (s.forkSeq ?? 0),
    })),
  };
}
