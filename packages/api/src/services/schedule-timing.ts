import { CronExpressionParser } from 'cron-parser';

/**
 * When a schedule fires. A cron is read in the schedule's IANA time zone by cron-parser, which
 * follows the zone's daylight-saving rules: a wall time skipped in spring fires once, at the same
 * minute of the shifted hour, and a wall time that happens twice in autumn fires once (the first).
 * An interval (`everySeconds`) is aligned to the Unix epoch, so every worker computes the same
 * ticks whatever it started from. Pure: the caller passes the time ("now") it goes by.
 */
export type ScheduleTiming = { cron: string; timezone: string; everySeconds?: null } | { cron?: null; everySeconds: number; timezone: string };

/** A tick late by more than this counts as missed (all workers were down) and follows catchUp. */
export const DEFAULT_GRACE_MS = 60_000;

/** The problem with a cron expression, or null when it is 5 fields (minute first) or 6 (seconds first). */
export function cronProblem(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return `must have 5 fields (minute hour day month weekday) or 6 (seconds first); got ${fields.length}`;
  try {
    CronExpressionParser.parse(cron.trim(), { tz: 'UTC', strict: false });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'is not a cron expression';
  }
}

/** Whether the runtime knows `zone` as an IANA time zone (Intl refuses unknown names). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The first tick strictly after `after`. */
export function nextFireAfter(timing: ScheduleTiming, after: Date): Date {
  if (timing.everySeconds) {
    const period = timing.everySeconds * 1000;
    return new Date((Math.floor(after.getTime() / period) + 1) * period);
  }
  const parsed = CronExpressionParser.parse(timing.cron ?? '', { currentDate: after, tz: timing.timezone });
  return parsed.next().toDate();
}

/** The last tick at or before `at`. */
function latestAtOrBefore(timing: ScheduleTiming, at: Date): Date {
  if (timing.everySeconds) {
    const period = timing.everySeconds * 1000;
    return new Date(Math.floor(at.getTime() / period) * period);
  }
  const parsed = CronExpressionParser.parse(timing.cron ?? '', { currentDate: new Date(at.getTime() + 1), tz: timing.timezone });
  return parsed.prev().toDate();
}

/** What a due schedule does now. */
export interface TickPlan {
  /** The tick to start now; null when none is to start (catchUp none after an outage). */
  fire: Date | null;
  /** When ticks were missed (beyond the grace): the first missed one, recorded as skipped. */
  missedFrom: Date | null;
  /** The schedule's next fire time after this plan is carried out. */
  next: Date;
}

/**
 * Plans a due schedule's step. A tick at most `graceMs` late is simply fired (a busy or restarting
 * fleet catches up tick by tick, none lost). Later than that, the ticks in between were missed:
 * `catchUp: latest` fires only the latest of them, `none` fires nothing (unless the latest is
 * itself within the grace) and goes on from the next tick after now.
 */
export function planTick(timing: ScheduleTiming, nextFireAt: Date, now: Date, catchUp: 'none' | 'latest', graceMs = DEFAULT_GRACE_MS): TickPlan {
  if (now.getTime() - nextFireAt.getTime() <= graceMs) return { fire: nextFireAt, missedFrom: null, next: nextFireAfter(timing, nextFireAt) };
  const latest = latestAtOrBefore(timing, now);
  const missedFrom = latest.getTime() > nextFireAt.getTime() ? nextFireAt : null;
  const recent = now.getTime() - latest.getTime() <= graceMs;
  const fire = catchUp === 'latest' || recent ? latest : null;
  if (catchUp === 'none' && !recent) return { fire: null, missedFrom: nextFireAt, next: nextFireAfter(timing, now) };
  return { fire, missedFrom, next: nextFireAfter(timing, latest) };
}

/** The goal of the tick's run: `{{scheduledAt}}` becomes the tick's time (ISO, UTC). */
export function renderScheduledGoal(goal: string, scheduledAt: Date): string {
  return goal.replaceAll(/\{\{\s*scheduledAt\s*\}\}/g, scheduledAt.toISOString());
}
