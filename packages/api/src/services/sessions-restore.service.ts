import { appendAudit, isTerminalRunStatus, isTerminalSessionStatus } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { RestoreSessionInput } from '../routers/sessions.schema';
import type { PrincipalActor } from '../trpc';
import type { RunDeps } from './runs.service';
import { findTeamSession } from './sessions-ancestry';
import { workspacePoint } from './sessions-commits';

/**
 * Records a request to put a branch's files back as they were at event `atEvent` of its log
 * (all of them, or `paths`), with its audit row, and wakes the session; the worker holding it
 * applies the request at its next step boundary and appends `workspace.restored` (the API never
 * appends events). The commit recorded at that event is resolved here, from the committed log, so
 * the request names exactly that event's files (a fork's ancestor's included).
 *
 * A running or waiting branch applies it as it goes on. A finished, failed or cancelled one is
 * reopened as a resume reopens one (compare-and-set on its finished status to `idle`, so a worker
 * can claim it), but with no instruction: the worker applies the restore and finishes it again
 * with the outcome it had, without calling the model. The run's own row is left as it is.
 */
export async function restoreSession(deps: RunDeps, actor: PrincipalActor, teamId: string, input: RestoreSessionInput, ip: string | null) {
  const outcome = await deps.db.$transaction(async (tx) => {
    const session = await findTeamSession(tx, teamId, input.sessionId);
    const point = await workspacePoint(tx, session, input.atEvent);
    const removed = await tx.workspaceRemoval.findUnique({ where: { runId: session.runId } });
    if (removed) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `The files of this run were removed on ${removed.removedAt.toISOString()} (${removed.reason}); there is nothing to restore from`,
      );
    }
    const run = await tx.run.findUniqueOrThrow({ where: { id: session.runId }, select: { status: true, cancelRequestedAt: true } });
    if (run.cancelRequestedAt && !isTerminalRunStatus(run.status))
      throw new AppError('PRECONDITION_FAILED', 'The run is being cancelled; restore its files once it has stopped');
    const reopened = isTerminalSessionStatus(session.status);
    if (reopened) {
      const { count } = await tx.session.updateMany({ where: { id: session.id, status: session.status }, data: { status: 'idle' } });
      if (count === 0) throw new AppError('CONFLICT', 'The branch changed meanwhile; reload and try again');
    }
    const request = await tx.workspaceRestore.create({
      data: {
        runId: session.runId,
        sessionId: session.id,
        atEvent: point.atEvent,
        sourceCommit: point.commit,
        paths: input.paths ?? [],
        requestedById: actor.userId,
      },
      select: { id: true },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'session.restored',
      targetType: 'session',
      targetId: session.id,
      data: {
        runId: session.runId,
        requestId: request.id,
        atEvent: point.atEvent,
        sourceCommit: point.commit,
        paths: input.paths ?? null,
        sessionStatus: session.status,
        reopened,
      },
    });
    return { requestId: request.id, runId: session.runId, commit: point.commit, reopened };
  });
  // The holder of a running session hears of it at once; any other is woken up (a spurious wake-up is harmless).
  await deps.dispatch.inbox(input.sessionId);
  await deps.dispatch.enqueueSession({ runId: outcome.runId, sessionId: input.sessionId, reason: 'message' });
  return {
    requestId: outcome.requestId,
    sessionId: input.sessionId,
    runId: outcome.runId,
    atEvent: input.atEvent,
    commit: outcome.commit,
    paths: input.paths ?? null,
    reopened: outcome.reopened,
  };
}
