import type { BadgeTone } from '@/components/ui/badge';

/** The schedule fields its state and timing are read from (as `schedules.list` and `schedules.get` return them). */
export interface ScheduleStateFields {
  enabled: boolean;
  pausedReason: string | null;
  consecutiveFailures: number;
  pauseAfterFailures: number;
}

export interface ScheduleState {
  kind: 'enabled' | 'paused' | 'paused-automatically';
  label: string;
  tone: BadgeTone;
  /** Why it paused itself (null while enabled or paused by a person). */
  reason: string | null;
}

/**
 * A schedule's state as the dashboard shows it: enabled, paused by a person (a pause clears the
 * reason), or paused by itself after `pauseAfterFailures` failed runs in a row (its reason says so).
 */
export function scheduleState(schedule: ScheduleStateFields): ScheduleState {
  if (schedule.enabled) return { kind: 'enabled', label: 'enabled', tone: 'success', reason: null };
  if (schedule.pausedReason) return { kind: 'paused-automatically', label: 'paused automatically', tone: 'danger', reason: schedule.pausedReason };
  return { kind: 'paused', label: 'paused', tone: 'neutral', reason: null };
}

/** "every 45 s", "every 5 min", "every 2 h", "every 1 d 6 h". */
export function everyText(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of units) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return `every ${parts.join(' ') || '0 s'}`;
}

/** When a schedule fires, in words: its cron and zone, or its interval. */
export function timingText(schedule: { cron: string | null; everySeconds: number | null; timezone: string }): string {
  if (schedule.cron) return `cron ${schedule.cron} (${schedule.timezone})`;
  return schedule.everySeconds ? everyText(schedule.everySeconds) : 'no timing';
}

/** A moment in a named IANA zone, with the zone's abbreviation: "Mar 4, 2026, 09:00:00 CET". */
export function formatInZone(date: Date, timeZone: string, locale?: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long', timeZone }).format(date);
  } catch {
    // A zone this browser does not know (the server's list may be newer): show it in UTC, named.
    return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }).format(date)} (${timeZone} unknown here)`;
  }
}

type TickOutcome = 'started' | 'skipped' | 'failed';

/** A tick's badge: a started tick takes its run's tone when the run failed or succeeded. */
export function tickTone(outcome: TickOutcome, runStatus: string | null): BadgeTone {
  if (outcome === 'failed') return 'danger';
  if (outcome === 'skipped') return 'neutral';
  if (runStatus === 'failed') return 'danger';
  if (runStatus === 'succeeded') return 'success';
  return 'accent';
}

/** The IANA zones this browser knows (for the time-zone field's suggestions); the server decides what it accepts. */
export function knownTimeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}
