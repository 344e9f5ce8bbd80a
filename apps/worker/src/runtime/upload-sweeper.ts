import { deleteExpiredUploads, type Queryable } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import type { Logger } from 'pino';
import { Periodic } from './periodic';

export interface UploadSweeperOptions {
  pool: Queryable;
  /** How often to sweep (default every 10 minutes). */
  intervalMs?: number;
  /** Uploads deleted per statement; a pass repeats until fewer come back. */
  batch?: number;
  clock?: Clock;
  logger: Logger;
}

/**
 * Deletes uploaded archives that expired before any run used them (24 hours after upload, as the
 * API sets `expiresAt`). An upload a run used is never deleted here: its runs can still be
 * replayed from it. Every worker sweeps; a delete re-checks under the row's lock, so two sweeps,
 * or a sweep and a run claiming the upload, never conflict.
 */
export class UploadSweeper {
  private readonly periodic: Periodic;
  private readonly clock: Clock;

  constructor(private readonly options: UploadSweeperOptions) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.periodic = new Periodic(options.intervalMs ?? 600_000, () => this.pass());
  }

  start(): void {
    this.periodic.start();
  }

  async stop(): Promise<void> {
    await this.periodic.stop();
  }

  /** One pass: the uploads it deleted (failures are logged; the next pass tries again). */
  async pass(): Promise<Array<{ id: string; teamId: string }>> {
    const batch = this.options.batch ?? 500;
    const deleted: Array<{ id: string; teamId: string }> = [];
    try {
      const now = new Date(this.clock.now());
      for (;;) {
        const rows = await deleteExpiredUploads(this.options.pool, now, batch);
        deleted.push(...rows);
        if (rows.length < batch) break;
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'upload sweep failed');
    }
    if (deleted.length > 0) this.options.logger.info({ deleted: deleted.length }, 'expired uploads deleted');
    return deleted;
  }
}
