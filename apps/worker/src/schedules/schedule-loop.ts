import { fireDueSchedules, settleScheduleStreaks, type ScheduleFireDeps } from '@looplane/api/scheduler';
import { earliestScheduleFireAt, type Queryable } from '@looplane/db';
import type { Logger } from 'pino';

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface ScheduleLoopOptions {
  /** What firing needs: the run services' deps and the clock every "now" of the loop comes from. */
  fire: ScheduleFireDeps;
  /** For the earliest next fire time (the worker's runtime pool). */
  pool: Queryable;
  /** The longest sleep between passes (LOOPLANE_SCHEDULER_POLL_MS): a new schedule is seen this soon. */
  maxSleepMs: number;
  /** How often failure streaks are settled (default 5 s). */
  settleEveryMs?: number;
  /** Batches of due schedules fired at once (each holds one connection while its runs take others; default 2). */
  parallel?: number;
  /** Default: a timer; tests pass their own. */
  sleep?: Sleep;
  logger: Logger;
}

/** A real sleep that ends early on abort; the timer does not keep the process alive. */
const timerSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The worker's scheduler. Every worker runs one: each pass fires what is due (again while
 * anything took a step, so a schedule behind by several ticks catches up at once), settles the
 * failure streaks every few seconds, then sleeps until the earliest next fire time, at most
 * `maxSleepMs`. Exactly-once is Postgres' (a row lock per schedule, a unique run per tick), so
 * any number of loops may race for the same tick; the loser finds it locked or already advanced.
 */
export class ScheduleLoop {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private lastSettledAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ScheduleLoopOptions) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Stops after the pass in flight (a tick being made is finished, not cut off). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const sleep = this.options.sleep ?? timerSleep;
    while (!this.abort.signal.aborted) {
      const delay = await this.pass();
      await sleep(delay, this.abort.signal);
    }
  }

  /** One pass; returns how long to sleep before the next. Failures are logged, never thrown. */
  async pass(): Promise<number> {
    const { fire, maxSleepMs, logger } = this.options;
    try {
      let stepped = 0;
      do {
        stepped = await fireDueSchedules(fire, { parallel: this.options.parallel ?? 2 });
      } while (stepped > 0 && !this.abort.signal.aborted);
      if (fire.clock.now() - this.lastSettledAt >= (this.options.settleEveryMs ?? 5000)) {
        this.lastSettledAt = fire.clock.now();
        const paused = await settleScheduleStreaks(fire);
        if (paused.length > 0) logger.info({ scheduleIds: paused }, 'schedules paused after failed runs in a row');
      }
      const earliest = await earliestScheduleFireAt(this.options.pool);
      if (!earliest) return maxSleepMs;
      const wait = earliest.getTime() - fire.clock.now();
      // Due yet nothing stepped: another worker holds it (or making its run failed, and was
      // logged). Look again soon, not in a tight loop.
      if (wait <= 0) return Math.min(maxSleepMs, 250);
      return Math.min(maxSleepMs, wait);
    } catch (error) {
      logger.warn({ err: error }, 'scheduler pass failed');
      return maxSleepMs;
    }
  }
}
