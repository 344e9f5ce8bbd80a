import { appendAudit, continueFinishedRun, type AuditActor, type Tx } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import { TERMINAL_STATUSES, type RaiseBudgetInput, type RunStatus } from '../routers/runs.schema';
import type { RunDeps } from './runs.service';
import { queryableOf } from '@looplane/db';
import { clearSettledCancel } from './sessions-fork.service';

const isTerminal = (status: RunStatus) => TERMINAL_STATUSES.includes(status);

/**
 * The run as this transaction sees it. No row lock on purpose: the worker locks ledger and run rows
 * in its own order, so control actions read without locking and change rows with compare-and-set
 * writes (which hold their row locks until commit, and take nothing after them but the audit lock).
 * The one exception, a message that continues a finished run, locks its main session and then the
 * run (the worker's order) in `continueFinishedRun`; no worker holds a finished run's rows.
 */
async function loadRun(tx: Tx, teamId: string, runId: string) {
  const run = await tx.run.findFirst({
    where: { id: runId, teamId },
    select: { id: true, status: true, waitReason: true, cancelRequestedAt: true, mainSessionId: true, busyPolicy: true },
  });
  if (!run) throw new AppError('NOT_FOUND', 'No such run in this team');
  if (!run.mainSessionId) throw new AppError('INTERNAL', `run ${runId} has no main session`);
  return { ...run, mainSessionId: run.mainSessionId };
}

/**
 * Requests cancellation: records who and when (compare-and-set on a non-terminal run), then tells
 * every worker and enqueues the main session so a queued run is cancelled too. The worker holding
 * the session aborts within a second and appends the cancellation. Asking twice is harmless: the
 * signal is sent again, the first request is what is recorded.
 */
export async function cancelRun(deps: RunDeps, actor: PrincipalActor, teamId: string, runId: string, ip: string | null) {
  const outcome = await deps.db.$transaction(async (tx) => {
    const run = await loadRun(tx, teamId, runId);
    if (isTerminal(run.status)) throw new AppError('PRECONDITION_FAILED', `The run already finished (${run.status})`);
    if (run.cancelRequestedAt) return { sessionId: run.mainSessionId, cancelRequestedAt: run.cancelRequestedAt, alreadyRequested: true };
    const cancelRequestedAt = new Date();
    const { count } = await tx.run.updateMany({
      where: { id: runId, cancelRequestedAt: null, status: { notIn: [...TERMINAL_STATUSES] } },
      data: { cancelRequestedAt, cancelledById: actor.userId },
    });
    if (count === 0) {
      // Lost a race: the run finished, or another cancel was recorded first.
      const now = await loadRun(tx, teamId, runId);
      if (isTerminal(now.status)) throw new AppError('PRECONDITION_FAILED', `The run already finished (${now.status})`);
      return { sessionId: now.mainSessionId, cancelRequestedAt: now.cancelRequestedAt ?? cancelRequestedAt, alreadyRequested: true };
    }
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'run.cancel_requested',
      targetType: 'run',
      targetId: runId,
      data: { status: run.status },
    });
    return { sessionId: run.mainSessionId, cancelRequestedAt, alreadyRequested: false };
  });
  await deps.dispatch.cancel({ runId });
  await deps.dispatch.enqueueSession({ runId, sessionId: outcome.sessionId, reason: 'cancel' });
  return { runId, cancelRequestedAt: outcome.cancelRequestedAt, alreadyRequested: outcome.alreadyRequested };
}

/** A finished run that a message continues (a cancelled one does not). */
const continuable = (status: RunStatus) => status === 'succeeded' || status === 'failed';

/**
 * Reopens a succeeded or failed run on its main session (run-continue.repository.ts), after
 * clearing a cancel request that lost to the finish (as `sessions.resume` does). Returns whether
 * this transaction reopened it: a concurrent message may have reopened it first.
 */
async function continueRun(tx: Tx, runId: string): Promise<boolean> {
  await clearSettledCancel(tx, runId);
  const { reopened } = await continueFinishedRun(queryableOf(tx), runId);
  return reopened;
}

/** How a message is sent on someone's behalf (a schedule's tick, a trigger's delivery). */
export interface MessageOptions {
  /** Makes the send idempotent: a message with this id already in the run's inbox is the answer. */
  messageId?: string;
  /** Who the audit row names (default: the actor); the actor is then recorded as `onBehalfOf`. */
  auditActor?: AuditActor;
  /** Added to the audit row's data (the schedule or trigger it came from). */
  auditData?: Record<string, unknown>;
}

/**
 * A person's message to a run, per the run's busy policy: `reject` refuses it while the run is
 * running; otherwise it goes to the main session's inbox, the holder is told, and a session that
 * is not running is woken up. A succeeded or failed run continues with it: it is queued again on
 * its main session, and the worker appends `run.resumed` and the message as the next user turn,
 * spending from the same budget. A cancelled run takes no messages (a fork or a resume of its
 * session continues it).
 */
export async function sendRunMessage(
  deps: RunDeps,
  actor: PrincipalActor,
  teamId: string,
  runId: string,
  text: string,
  ip: string | null,
  options: MessageOptions = {},
) {
  const outcome = await deps.db.$transaction(async (tx) => {
    if (options.messageId) {
      const earlier = await tx.inboxMessage.findUnique({
        where: { id: options.messageId },
        select: { id: true, createdAt: true, runId: true, sessionId: true, consumedAt: true },
      });
      if (earlier && earlier.runId !== runId) throw new AppError('INTERNAL', `message ${options.messageId} belongs to another run`);
      if (earlier)
        return {
          repeated: true as const,
          message: { id: earlier.id, createdAt: earlier.createdAt },
          sessionId: earlier.sessionId,
          pending: !earlier.consumedAt,
        };
    }
    const run = await loadRun(tx, teamId, runId);
    if (run.status === 'cancelled') {
      throw new AppError('PRECONDITION_FAILED', 'A cancelled run cannot take messages; fork or resume its session');
    }
    if (run.cancelRequestedAt && !isTerminal(run.status)) {
      throw new AppError('PRECONDITION_FAILED', 'The run is being cancelled; it takes no more messages');
    }
    if (run.busyPolicy === 'reject' && run.status === 'running') {
      throw new AppError('PRECONDITION_FAILED', 'The run is working and its agent rejects messages while busy; send it when the run waits or finishes');
    }
    const continued = continuable(run.status) ? await continueRun(tx, runId) : false;
    // Read after the continue: a message that lost the race to reopen the run sees it queued.
    const session = await tx.session.findUniqueOrThrow({ where: { id: run.mainSessionId }, select: { status: true } });
    const message = await tx.inboxMessage.create({
      data: { ...(options.messageId ? { id: options.messageId } : {}), runId, sessionId: run.mainSessionId, text, createdById: actor.userId },
      select: { id: true, createdAt: true },
    });
    await appendAudit(tx, {
      teamId,
      actor: options.auditActor ?? actor,
      ip,
      action: 'run.message_sent',
      targetType: 'run',
      targetId: runId,
      data: {
        inboxMessageId: message.id,
        sessionId: run.mainSessionId,
        chars: text.length,
        busyPolicy: run.busyPolicy,
        runStatus: run.status,
        ...(continued ? { continued: true } : {}),
        ...(options.auditActor ? { onBehalfOf: actor.userId } : {}),
        ...options.auditData,
      },
    });
    return { repeated: false as const, message, sessionId: run.mainSessionId, sessionStatus: session.status, continued };
  });
  // A repeat of an idempotent message (its first delivery committed): the same answer, nothing
  // new. A sender that stopped between that commit and the wake-up left it unread: wake it now
  // (a spurious wake-up is harmless, the worker's claim is a compare-and-set).
  if (outcome.repeated) {
    if (outcome.pending) await deps.dispatch.enqueueSession({ runId, sessionId: outcome.sessionId, reason: 'message' });
    return { messageId: outcome.message.id, createdAt: outcome.message.createdAt, delivered: 'inbox' as const };
  }
  const { message, sessionId, sessionStatus, continued } = outcome;
  await deps.dispatch.inbox(sessionId);
  const wake = sessionStatus !== 'running';
  // Announced before the wake-up, so watchers hear `queued` before the worker's `running`.
  if (continued) await deps.dispatch.teamActivity(teamId, { kind: 'run.status', runId, status: 'queued' });
  if (wake) await deps.dispatch.enqueueSession({ runId, sessionId, reason: continued ? 'resume' : 'message' });
  return { messageId: message.id, createdAt: message.createdAt, delivered: wake ? ('wake' as const) : ('inbox' as const) };
}

const numberOrNull = (value: bigint | number | null) => (value === null ? null : Number(value));

/**
 * Raises the run ledger's limits by the given amounts (a `raise` entry and a `budget.raised` audit
 * row). A run waiting on its budget is woken up; a running one too, since it may be parking on
 * the old limit right now (a spurious wake-up is harmless: the worker's claim is a compare-and-set).
 */
export async function raiseRunBudget(deps: RunDeps, actor: PrincipalActor, teamId: string, input: RaiseBudgetInput, ip: string | null) {
  const { runId } = input;
  const { ledger, run } = await deps.db.$transaction(async (tx) => {
    const run = await loadRun(tx, teamId, runId);
    if (isTerminal(run.status)) throw new AppError('PRECONDITION_FAILED', `The run already finished (${run.status})`);
    const current = await tx.budgetLedger.findUnique({ where: { runId_scope_scopeId: { runId, scope: 'run', scopeId: '' } }, select: { id: true } });
    if (!current) throw new AppError('INTERNAL', `run ${runId} has no run ledger`);
    // `limit + x` leaves NULL (unlimited) as it is.
    const ledger = await tx.budgetLedger.update({
      where: { id: current.id },
      data: {
        ...(input.tokens !== undefined ? { limitTokens: { increment: BigInt(input.tokens) } } : {}),
        ...(input.costMicros !== undefined ? { limitCostMicros: { increment: BigInt(input.costMicros) } } : {}),
        ...(input.toolCalls !== undefined ? { limitCalls: { increment: input.toolCalls } } : {}),
      },
      select: { id: true, limitTokens: true, limitCostMicros: true, limitCalls: true },
    });
    await tx.budgetEntry.create({
      data: { ledgerId: ledger.id, kind: 'raise', tokens: BigInt(input.tokens ?? 0), costMicros: BigInt(input.costMicros ?? 0), calls: input.toolCalls ?? 0 },
    });
    const limits = { tokens: numberOrNull(ledger.limitTokens), costMicros: numberOrNull(ledger.limitCostMicros), toolCalls: ledger.limitCalls };
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'budget.raised',
      targetType: 'run',
      targetId: runId,
      data: { ledgerId: ledger.id, by: { tokens: input.tokens ?? 0, costMicros: input.costMicros ?? 0, toolCalls: input.toolCalls ?? 0 }, limits },
    });
    return { ledger: limits, run };
  });
  const waitingOnBudget = run.status === 'waiting' && run.waitReason === 'budget';
  const resume = waitingOnBudget || run.status === 'running';
  if (resume) await deps.dispatch.enqueueSession({ runId, sessionId: run.mainSessionId, reason: 'resume' });
  return { runId, limits: ledger, resumed: waitingOnBudget };
}
