import { appendAudit, isTerminalSessionStatus } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { ResumeSessionInput } from '../routers/sessions.schema';
import type { PrincipalActor } from '../trpc';
import { admitRunStart } from './run-start-limits';
import { runLimitsOf, type RunDeps } from './runs.service';
import { findTeamSession } from './sessions-ancestry';
import { clearSettledCancel } from './sessions-fork.service';

/**
 * Continues a finished, failed or cancelled branch with a new instruction: the row becomes
 * claimable again (compare-and-set on its finished status) and the instruction goes to its inbox.
 * The worker sees a finished log on a live row, appends `run.resumed` and then the message. For
 * the main line the run is queued again, since its status follows that branch.
 */
export async function resumeSession(deps: RunDeps, actor: PrincipalActor, teamId: string, input: ResumeSessionInput, ip: string | null) {
  const outcome = await deps.db.$transaction(async (tx) => {
    const session = await findTeamSession(tx, teamId, input.sessionId);
    if (!isTerminalSessionStatus(session.status)) {
      throw new AppError(
        'PRECONDITION_FAILED',
        `The branch is ${session.status}; only a finished, failed or cancelled branch can be resumed (send a running one a message instead)`,
      );
    }
    await clearSettledCancel(tx, session.runId);
    const { count } = await tx.session.updateMany({
      where: { id: session.id, status: session.status },
      data: { status: 'idle', waitReason: null, result: null, error: null, finishedAt: null },
    });
    if (count === 0) throw new AppError('CONFLICT', 'The branch changed meanwhile; reload and try again');
    const message = await tx.inboxMessage.create({
      data: { runId: session.runId, sessionId: session.id, text: input.message, createdById: actor.userId },
      select: { id: true },
    });
    const run = await tx.run.updateMany({
      where: { id: session.runId, mainSessionId: session.id },
      data: { status: 'queued', waitReason: null, result: null, error: null, finishedAt: null },
    });
    // As for a fork: checked where the audit append locks the chain; a resume counts as a start.
    await admitRunStart(tx, { teamId, newRun: false, limits: runLimitsOf(deps) });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'session.resumed',
      targetType: 'session',
      targetId: session.id,
      data: { runId: session.runId, previousStatus: session.status, inboxMessageId: message.id, chars: input.message.length, mainLine: run.count > 0 },
    });
    return { runId: session.runId, mainLine: run.count > 0, teamId };
  });
  await deps.dispatch.enqueueSession({ runId: outcome.runId, sessionId: input.sessionId, reason: 'resume' });
  if (outcome.mainLine) await deps.dispatch.teamActivity(teamId, { kind: 'run.status', runId: outcome.runId, status: 'queued' });
  return { sessionId: input.sessionId, runId: outcome.runId, status: 'idle' as const };
}

/** A session's status as the run's: a branch not yet picked up is a queued run. */
function runStatusOf(status: string): 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled' {
  return status === 'idle' ? 'queued' : (status as 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled');
}

/**
 * Makes a branch the run's main line: the run's status, result and error become the branch's
 * (and follow it from now on: the worker updates the run only from its main session), and the
 * run's workspace is that branch's. The old main line stays as it is, readable in the tree.
 */
export async function promoteSession(deps: RunDeps, actor: PrincipalActor, teamId: string, sessionId: string, ip: string | null) {
  const outcome = await deps.db.$transaction(async (tx) => {
    const session = await findTeamSession(tx, teamId, sessionId);
    const full = await tx.session.findUniqueOrThrow({
      where: { id: session.id },
      select: { status: true, waitReason: true, result: true, error: true, finishedAt: true },
    });
    const run = await tx.run.findUniqueOrThrow({ where: { id: session.runId }, select: { mainSessionId: true, status: true } });
    if (run.mainSessionId === session.id) return { runId: session.runId, previous: run.mainSessionId, status: run.status, changed: false };
    const status = runStatusOf(full.status);
    await tx.run.update({
      where: { id: session.runId },
      data: { mainSessionId: session.id, status, waitReason: full.waitReason, result: full.result, error: full.error, finishedAt: full.finishedAt },
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'session.promoted',
      targetType: 'run',
      targetId: session.runId,
      data: { sessionId: session.id, previousMainSessionId: run.mainSessionId, previousStatus: run.status, status },
    });
    return { runId: session.runId, previous: run.mainSessionId, status, changed: true };
  });
  if (outcome.changed) await deps.dispatch.teamActivity(teamId, { kind: 'run.status', runId: outcome.runId, status: outcome.status });
  return { runId: outcome.runId, mainSessionId: sessionId, previousMainSessionId: outcome.previous, status: outcome.status };
}
