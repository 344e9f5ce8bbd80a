import {
  isTerminalSessionStatus,
  claimSessions,
  continueForPendingMessages,
  failSession,
  loadSessionContexts,
  loadSessionEvents,
  reopenForRestores,
  type ClaimedSession,
  type SessionContext,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import { fold, next } from '@looplane/engine';
import { QUEUES, type SessionJob } from '@looplane/queue';
import { DelayedError, type Job } from 'bullmq';
import type { ActiveSessions, SessionHandle } from './active-sessions';
import type { AdmissionBatcher } from './admission-batcher';
import { ReadBatcher } from './read-batcher';
import { SessionRun, type SessionEnd, type SessionRunDeps } from './session-run';
import { resolveWait } from './wake-ups';
import { routeSwarmJob } from '../swarm/isolation/node-router';

export interface SessionJobsDeps extends SessionRunDeps {
  active: ActiveSessions;
  admission: AdmissionBatcher;
  enqueue: (job: SessionJob) => Promise<void>;
  /** Hands a session waiting for an isolation level to the queue of the workers that offer it. */
  forwardForIsolation: (job: SessionJob, wait: { level: string; seq: number }) => Promise<void>;
  /** Delay before a job over a concurrency limit is tried again (default 500-1500 ms, jittered). */
  deferMs?: () => number;
}

/**
 * The processor of the sessions queue. A job only says "look at this session now": the truth is
 * read from Postgres, the session claimed by compare-and-set (through admission when its run
 * needs a concurrency slot), driven, and released. Duplicate and stale jobs are harmless.
 */
export class SessionJobs {
  private stopping = false;
  private readonly contexts: ReadBatcher<string, SessionContext>;

  constructor(private readonly deps: SessionJobsDeps) {
    this.contexts = new ReadBatcher((ids) => loadSessionContexts(deps.pool, ids));
  }

  /** After this, jobs that arrive are put back for another worker. */
  stopIntake(): void {
    this.stopping = true;
  }

  readonly process = async (job: Job<SessionJob>, token?: string): Promise<void> => {
    const data = QUEUES.sessions.schema.parse(job.data);
    const { active } = this.deps;
    const held = active.get(data.sessionId);
    if (held) return this.handOver(held, data);
    if (this.stopping) return this.defer(job, token, 100);
    const handle = active.open(data.sessionId, data.runId);
    let end: SessionEnd | null = null;
    try {
      const context = await this.contexts.get(data.sessionId);
      if (!context) return;
      if (isTerminalSessionStatus(context.status)) return await this.continueIfMessaged(context, data);
      // A graph run's `process` node runs on its own worker process (swarm/isolation).
      if (context.graphRun && (await routeSwarmJob(context, data))) return;
      if (context.status === 'waiting' && !context.cancelRequestedAt) {
        const wake = await this.wakeUp(context);
        // Waiting for a level this worker lacks: to the workers that offer it (nothing is claimed here).
        if (typeof wake === 'object') return await this.deps.forwardForIsolation(data, wake);
        if (!wake) return;
      }
      const claim = await this.claim(context);
      if (claim === 'deferred') return this.defer(job, token, this.deps.deferMs?.() ?? 500 + Math.random() * 1000);
      if (!claim) return;
      end = await this.run(context, claim, handle).catch((error: unknown) => this.lastAttempt(job, context, error));
    } finally {
      active.close(handle);
    }
    // A wake-up handed over while this job parked the session (a budget raised during the
    // release) would be lost: re-deliver it now that the next job claims normally.
    if (end?.kind === 'waiting' && handle.missedWakeUp) await this.deps.enqueue({ runId: data.runId, sessionId: data.sessionId, reason: 'resume' });
  };

  /**
   * A failure is retried (BullMQ's attempts, with backoff; the reconciler after that). A failure
   * of our own making (an AppError: a log that does not fold, an event that does not decode) will
   * not heal by retrying: on the last attempt the run is failed visibly rather than left running.
   */
  private async lastAttempt(job: Job<SessionJob>, context: SessionContext, error: unknown): Promise<SessionEnd> {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (!final || !(error instanceof AppError) || error.code === 'CONFLICT') throw error;
    const reason = `the worker cannot continue this run: ${error.message}`;
    const teamId = await failSession(this.deps.pool, context.sessionId, reason);
    if (teamId) this.deps.live.runStatus(teamId, context.runId, 'failed');
    this.deps.logger.error({ err: error, runId: context.runId, sessionId: context.sessionId }, 'run failed: it cannot be continued');
    return { kind: 'finished' };
  }

  /**
   * A message that reached a finished run's inbox after the sender saw it running (the run
   * finished meanwhile): the run continues with it, as a message to a finished run does.
   */
  private async continueIfMessaged(context: SessionContext, data: SessionJob): Promise<void> {
    if (data.reason !== 'message' || !context.inboxPending || !context.isMain) return;
    if (!(await continueForPendingMessages(this.deps.pool, context.sessionId))) return;
    this.deps.live.runStatus(context.teamId, context.runId, 'queued');
    await this.deps.enqueue({ runId: context.runId, sessionId: context.sessionId, reason: 'resume' });
  }

  /** A job for a session this process is already working on is handed to that job. */
  private handOver(handle: SessionHandle, data: SessionJob): void {
    if (data.reason === 'cancel') handle.interrupt('cancel');
    else if (data.reason === 'message') handle.interrupt('inbox');
    else handle.missedWakeUp = true;
  }

  private async defer(job: Job<SessionJob>, token: string | undefined, delayMs: number): Promise<never> {
    await job.moveToDelayed(Date.now() + Math.round(delayMs), token);
    throw new DelayedError();
  }

  /**
   * For a waiting session: has anything it waits for happened (or a message or a restore request
   * arrived)? Read-only, no lease. An isolation wait this worker cannot end says which level it
   * needs, for the workers that offer it.
   */
  private async wakeUp(context: SessionContext): Promise<boolean | { level: string; seq: number }> {
    if (context.inboxPending || context.restorePending) return true;
    const state = fold(await loadSessionEvents(this.deps.pool, context.sessionId));
    const action = next(state);
    if (action.kind !== 'wait') return true;
    const isolationLevels = () => this.deps.tools.isolationLevels();
    const events = await resolveWait(action, {
      db: this.deps.pool,
      runId: context.runId,
      sessionId: context.sessionId,
      state,
      clock: this.deps.clock,
      isolationLevels,
    });
    if (events === null && action.reason === 'isolation') return { level: action.refs[0] ?? '', seq: state.lastSeq };
    return events !== null;
  }

  /**
   * Claims the session. A run that is queued or waiting needs a concurrency slot first (a cancel
   * does not: it must never wait for a slot); a run already running does not.
   */
  private async claim(context: SessionContext): Promise<ClaimedSession | 'deferred' | null> {
    const { deps } = this;
    const needsSlot = (context.runStatus === 'queued' || context.runStatus === 'waiting') && !context.cancelRequestedAt;
    if (!needsSlot) {
      const [claim] = await claimSessions(deps.pool, [context.sessionId], deps.owner, deps.leaseTtlMs);
      return claim ?? null;
    }
    const verdict = await deps.admission.admit(context.teamId, { sessionId: context.sessionId, runId: context.runId, agentId: context.agentId });
    if (verdict.kind === 'deferred') return 'deferred';
    if (verdict.kind === 'unavailable') return null;
    if (verdict.runStarted) deps.live.runStatus(context.teamId, context.runId, 'running');
    return verdict.claim;
  }

  private async run(context: SessionContext, claim: ClaimedSession, handle: SessionHandle): Promise<SessionEnd> {
    const { end, release } = await new SessionRun(this.deps, context, claim, handle).execute();
    const job = { runId: context.runId, sessionId: context.sessionId };
    if (end.kind === 'handoff') {
      // Shutdown: the session stays running, unleased; the next worker continues at once
      // (the reconciler would find it anyway if this enqueue is lost).
      await this.deps.enqueue({ ...job, reason: 'reconcile' }).catch(() => undefined);
    } else if (end.kind === 'waiting' && release?.released) {
      // Seen by the releasing statement itself, so a cancel or message that raced the release is never lost.
      if (release.cancelRequested) await this.deps.enqueue({ ...job, reason: 'cancel' });
      else if (release.inboxPending) await this.deps.enqueue({ ...job, reason: 'message' });
      else if (end.reason === 'isolation') await this.deps.forwardForIsolation({ ...job, reason: 'resume' }, { level: end.refs[0] ?? '', seq: end.seq });
    } else if (end.kind === 'finished' && (await continueForPendingMessages(this.deps.pool, context.sessionId))) {
      // A message sent while this job finished the run found it still running: the run continues
      // with it (as a message to a finished run does), in a job of its own.
      this.deps.live.runStatus(context.teamId, context.runId, 'queued');
      await this.deps.enqueue({ ...job, reason: 'resume' });
    } else if (end.kind === 'finished' && (await reopenForRestores(this.deps.pool, context.sessionId))) {
      // A restore requested while this job finished the session found it still running, and a
      // finished log takes no more events: reopened now (as `sessions.restore` reopens a finished
      // one), the next job applies it and finishes the session again.
      await this.deps.enqueue({ ...job, reason: 'message' });
    }
    return end;
  }
}
