import type { Queue } from 'bullmq';
import { enqueueSession, enqueueSessions, type CancelMessage, type LiveBus, type SessionJob, type TeamActivity } from '@looplane/queue';

/**
 * The API's after-commit side effects: wake a session up (BullMQ) and tell live listeners
 * (Redis pub/sub). Postgres already holds the truth when these run, so none of them may fail the
 * request: a lost wake-up is repaired by the worker's reconciler, a lost notice only delays a
 * screen. Failures go to `onError` (logged by the web app).
 */
export interface Dispatch {
  enqueueSession(job: SessionJob): Promise<void>;
  /** Many wake-ups in one Redis round trip (a batch of creates); optional, callers fall back to {@link enqueueSession}. */
  enqueueSessions?(jobs: readonly SessionJob[]): Promise<void>;
  teamActivity(teamId: string, activity: TeamActivity): Promise<void>;
  /** Many team notices in one Redis write; optional, callers fall back to {@link teamActivity}. */
  teamActivities?(notices: ReadonlyArray<{ teamId: string; activity: TeamActivity }>): Promise<void>;
  cancel(message: CancelMessage): Promise<void>;
  inbox(sessionId: string): Promise<void>;
}

export interface DispatchOptions {
  /** Called with every swallowed failure (Redis down, timeout). */
  onError?: (error: unknown, what: string) => void;
  /** A side effect that takes longer than this is abandoned (default 2 s) so a request never hangs on Redis. */
  timeoutMs?: number;
}

/** Builds the {@link Dispatch} over the sessions queue and the live bus. */
export function createDispatch(queue: Queue<SessionJob>, bus: LiveBus, options: DispatchOptions = {}): Dispatch {
  const timeoutMs = options.timeoutMs ?? 2000;
  const guard = async (what: string, effect: () => Promise<unknown>): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([effect(), timeout]);
    } catch (error) {
      options.onError?.(error, what);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    enqueueSession: (job) => guard(`enqueue ${job.reason} for session ${job.sessionId}`, () => enqueueSession(queue, job)),
    enqueueSessions: (jobs) => guard(`enqueue ${jobs.length} sessions`, () => enqueueSessions(queue, jobs)),
    teamActivity: (teamId, activity) => guard(`publish ${activity.kind} to team ${teamId}`, () => bus.publishTeamActivity(teamId, activity)),
    teamActivities: (notices) => guard(`publish ${notices.length} team notices`, () => bus.publishTeamActivities(notices)),
    cancel: (message) => guard(`publish cancel of run ${message.runId}`, () => bus.publishCancel(message)),
    inbox: (sessionId) => guard(`publish inbox of session ${sessionId}`, () => bus.publishInbox(sessionId)),
  };
}
