import type { DurableAppend } from '@looplane/db';
import type { LiveBus, TeamActivity } from '@looplane/queue';
import type { Logger } from 'pino';

type RunStatus = Extract<TeamActivity, { kind: 'run.status' }>['status'];

/**
 * The worker's live fan-out: after each commit, the run's last event number; on every run status
 * change, a team activity notice. Fire-and-forget: Postgres holds the truth and subscribers read
 * it by cursor, so a publish lost while Redis is down only delays a screen. One warning per outage.
 */
export class LiveEvents {
  private failing = false;

  constructor(
    private readonly bus: LiveBus,
    private readonly logger: Logger,
  ) {}

  /** A commit became durable (the event store's hook). */
  durable(teamId: string, isMain: boolean, append: DurableAppend): void {
    this.fire(this.bus.publishRunEvent({ runId: append.runId, sessionId: append.sessionId, eventNo: append.eventNo, type: append.type }));
    if (append.finished && isMain) this.runStatus(teamId, append.runId, append.finished);
  }

  /** A run's status changed (admission, wait, finish). */
  runStatus(teamId: string, runId: string, status: RunStatus, waitReason: string | null = null): void {
    this.fire(this.bus.publishTeamActivity(teamId, { kind: 'run.status', runId, status, waitReason }));
  }

  private fire(published: Promise<number>): void {
    published.then(
      () => {
        if (!this.failing) return;
        this.failing = false;
        this.logger.info('live events publish again');
      },
      (error: unknown) => {
        if (this.failing) return;
        this.failing = true;
        this.logger.warn({ err: error }, 'cannot publish live events; watchers catch up from Postgres');
      },
    );
  }
}
