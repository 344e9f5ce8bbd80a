import { findReconcilable, type PgPool } from '@looplane/db';
import type { SessionJob } from '@looplane/queue';
import type { Logger } from 'pino';
import { Periodic } from './periodic';

export interface ReconcilerOptions {
  pool: PgPool;
  enqueue: (job: SessionJob, nonce: string) => Promise<void>;
  intervalMs: number;
  /** A session idle (never claimed) or waiting on a cancel request this long gets a job (default 30 s). */
  idleMs?: number | undefined;
  /** Sessions per pass (default 500). */
  batch?: number;
  logger: Logger;
}

/**
 * Postgres owns the truth, the queue only delivers: this finds sessions that need a worker but
 * may have no job (a worker died holding them, a job was lost with a Redis restart, a wake-up
 * raced a release) and enqueues one. Job ids are derived from the lease version and a time
 * bucket, so every worker's reconciler can run at once and a session gets one job per bucket.
 */
export class Reconciler {
  private readonly periodic: Periodic;

  constructor(private readonly options: ReconcilerOptions) {
    this.periodic = new Periodic(options.intervalMs, () => this.pass());
  }

  start(): void {
    this.periodic.start();
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
  }

  /** One pass; returns how many sessions got a job. */
  async pass(): Promise<number> {
    const idleMs = this.options.idleMs ?? 30_000;
    const bucket = Math.floor(Date.now() / Math.max(idleMs, this.options.intervalMs * 4));
    try {
      const candidates = await findReconcilable(this.options.pool, idleMs, this.options.batch ?? 500);
      for (const c of candidates) {
        const reason = c.cancelRequested ? 'cancel' : c.status === 'idle' ? 'start' : 'reconcile';
        await this.options.enqueue({ runId: c.runId, sessionId: c.sessionId, reason }, `rc-${c.leaseVersion}-${bucket}`);
      }
      if (candidates.length > 0) this.options.logger.info({ sessions: candidates.length }, 'reconciler re-enqueued sessions');
      return candidates.length;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'reconciler pass failed');
      return 0;
    }
  }
}
