import { renewLeases, type PgPool } from '@looplane/db';
import type { Logger } from 'pino';
import type { SessionHandle } from './active-sessions';

export interface LeaseKeeperOptions {
  pool: PgPool;
  owner: string;
  ttlMs: number;
  /** How often leases are renewed (default a third of the TTL). */
  intervalMs?: number;
  logger: Logger;
}

/**
 * Renews every lease this worker holds in one statement per tick, and relays what the renewal
 * saw: a lease another worker took (the drive is aborted and writes nothing more), a cancel
 * request or an inbox message (a fallback for notices lost on the live bus).
 */
export class LeaseKeeper {
  private readonly tracked = new Set<SessionHandle>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private failing = false;

  constructor(private readonly options: LeaseKeeperOptions) {}

  track(handle: SessionHandle): void {
    this.tracked.add(handle);
  }

  untrack(handle: SessionHandle): void {
    this.tracked.delete(handle);
  }

  start(): void {
    const interval = this.options.intervalMs ?? Math.max(200, Math.floor(this.options.ttlMs / 3));
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, interval);
    this.timer.unref();
  }

  /** Stops renewing (after the last session was released) and waits for a tick in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  private async tick(): Promise<void> {
    const handles = [...this.tracked].filter((h) => h.lease);
    if (handles.length === 0) return;
    const byId = new Map(handles.map((h) => [h.sessionId, h]));
    try {
      const reports = await renewLeases(
        this.options.pool,
        this.options.owner,
        handles.map((h) => ({ sessionId: h.sessionId, version: h.lease!.version })),
        this.options.ttlMs,
      );
      this.failing = false;
      for (const report of reports) {
        const handle = byId.get(report.sessionId);
        if (!handle || !this.tracked.has(handle)) continue;
        if (!report.held) handle.interrupt('lease-lost');
        if (report.cancelRequested) handle.interrupt('cancel');
        if (report.inboxPending) handle.interrupt('inbox');
      }
    } catch (error) {
      // Postgres unreachable: appends fail too; a lease that expires meanwhile is fenced as usual.
      if (!this.failing) this.options.logger.warn({ err: error, sessions: handles.length }, 'lease renewal failed');
      this.failing = true;
    }
  }
}
