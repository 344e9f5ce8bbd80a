import { recordWaitingAnswer, releaseSession, type PgPool, type ReleaseOutcome, type SessionContext, type SessionLease } from '@looplane/db';
import type { RunState } from '@looplane/engine';
import type { Logger } from 'pino';
import type { LiveEvents } from './live-events';
import type { Wait } from './wake-ups';

/** How a claimed session was left: finished, parked on a wait, handed to another worker, or lost. */
export type SessionEnd =
  | { kind: 'finished' }
  /** `refs` and `seq` (the log's end) say what it waits on: an isolation wait is handed to its level's queue by them. */
  | { kind: 'waiting'; reason: Wait['reason']; refs: string[]; seq: number }
  | { kind: 'handoff' }
  | { kind: 'lost' };

export interface SessionReleaseDeps {
  pool: PgPool;
  live: LiveEvents;
  logger: Logger;
}

/**
 * Giving a claimed session's lease back when its job ends without finishing the log. It exists
 * apart from `SessionRun` because what goes with a release is bookkeeping on the session and run
 * rows, not a step of the run: a persistent run's answer is recorded as its result while it waits,
 * watchers of the run hear that it waits, and a job that failed leaves the session claimable at
 * once for its retry. (A finished log needs none of this: the flush that finished it released it.)
 */
export class SessionRelease {
  constructor(
    private readonly deps: SessionReleaseDeps,
    private readonly lease: SessionLease,
    private readonly context: Pick<SessionContext, 'teamId' | 'isMain'>,
    /** The session's child logger (made lazily by the session run). */
    private readonly log: () => Logger,
  ) {}

  /** Releases the lease as `end` says: waiting (on its reason) or still running, for the next job to claim. */
  async leaveOpen(end: SessionEnd, state: RunState | null): Promise<ReleaseOutcome> {
    const waiting = end.kind === 'waiting';
    // A persistent run that answered waits for the next message: its answer is the result meanwhile.
    const answer = waiting && end.reason === 'message' ? (state?.finalText ?? null) : null;
    if (answer !== null) await recordWaitingAnswer(this.deps.pool, this.lease, answer);
    const outcome = await releaseSession(this.deps.pool, this.lease, {
      status: waiting ? 'waiting' : 'running',
      waitReason: waiting ? end.reason : null,
      runStatus: waiting ? 'waiting' : null,
    });
    if (waiting && this.context.isMain && outcome.released) this.deps.live.runStatus(this.context.teamId, this.lease.runId, 'waiting', end.reason);
    if (this.deps.logger.isLevelEnabled('debug')) this.log().debug({ end, release: outcome }, 'session released');
    return outcome;
  }

  /** Leaves the session resumable after a failed job: the job is retried (here or elsewhere) and claims it again at once. */
  async forRetry(): Promise<void> {
    await releaseSession(this.deps.pool, this.lease, { status: 'running', waitReason: null, runStatus: null }).catch(() => undefined);
  }
}
