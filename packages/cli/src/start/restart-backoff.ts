/** How long to wait before restarting a child that died, given how long it had been up. */
export interface RestartBackoffOptions {
  /** First delay (default 500 ms). */
  initialMs?: number;
  /** The delay doubles after each quick death up to this (default 30 s). */
  maxMs?: number;
  /** A child that stayed up at least this long starts over at {@link initialMs} (default 60 s). */
  resetAfterMs?: number;
}

/**
 * Exponential restart delays: 0.5 s, 1 s, 2 s … 30 s while a child keeps dying soon after each
 * start, back to 0.5 s once it ran for a minute. A crash loop then costs a restart every 30 s
 * instead of a busy spin, and a child that crashes once a day comes back at once.
 */
export class RestartBackoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly resetAfterMs: number;
  private nextMs: number;

  constructor(options: RestartBackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 500;
    this.maxMs = options.maxMs ?? 30_000;
    this.resetAfterMs = options.resetAfterMs ?? 60_000;
    this.nextMs = this.initialMs;
  }

  /** The delay before the next restart of a child that was up for `uptimeMs`. */
  next(uptimeMs: number): number {
    if (uptimeMs >= this.resetAfterMs) this.nextMs = this.initialMs;
    const delay = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    return delay;
  }
}
