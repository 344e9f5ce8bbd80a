import { describe, expect, it } from 'vitest';
import { cronProblem, isTimeZone, nextFireAfter, planTick, renderScheduledGoal, type ScheduleTiming } from './schedule-timing';

const at = (iso: string) => new Date(iso);
const berlin = (cron: string): ScheduleTiming => ({ cron, timezone: 'Europe/Berlin' });

/** Every tick from `from` (exclusive) up to `until`. */
function ticks(timing: ScheduleTiming, from: string, until: string): string[] {
  const out: string[] = [];
  for (let t = nextFireAfter(timing, at(from)); t < at(until); t = nextFireAfter(timing, t)) out.push(t.toISOString());
  return out;
}

describe('schedule timing', () => {
  it('fires a 02:30 Berlin cron once on the spring-forward day, in the shifted hour (2026-03-29)', () => {
    // 02:00 CET becomes 03:00 CEST: 02:30 does not exist that day; it fires once, at 03:30 CEST.
    expect(ticks(berlin('30 2 * * *'), '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('fires a 02:30 Berlin cron once on the fall-back day, though 02:30 happens twice (2026-10-25)', () => {
    expect(ticks(berlin('30 2 * * *'), '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('an hourly Berlin cron fires once per real hour across both changes', () => {
    expect(ticks(berlin('0 * * * *'), '2026-03-28T23:30:00Z', '2026-03-29T03:00:00Z')).toHaveLength(3);
    expect(ticks(berlin('0 * * * *'), '2026-10-24T23:30:00Z', '2026-10-25T03:00:00Z')).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
  });

  it('reads 6 fields with seconds first, and aligns intervals to the epoch', () => {
    expect(ticks({ cron: '*/20 * * * * *', timezone: 'UTC' }, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z')).toEqual([
      '2026-01-01T00:00:20.000Z',
      '2026-01-01T00:00:40.000Z',
    ]);
    expect(nextFireAfter({ everySeconds: 60, timezone: 'UTC' }, at('2026-01-01T00:00:59.999Z')).toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(nextFireAfter({ everySeconds: 60, timezone: 'UTC' }, at('2026-01-01T00:01:00.000Z')).toISOString()).toBe('2026-01-01T00:02:00.000Z');
  });

  it('refuses crons that are not 5 or 6 fields or out of range, and unknown zones', () => {
    expect(cronProblem('* * * *')).toMatch(/5 fields/);
    expect(cronProblem('* * * * * * *')).toMatch(/5 fields/);
    expect(cronProblem('61 * * * *')).toMatch(/range/);
    expect(cronProblem('0 9 * * 1-5')).toBeNull();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('a tick within the grace fires as is; after an outage catchUp latest fires the latest only, none fires nothing', () => {
    const hourly: ScheduleTiming = { everySeconds: 600, timezone: 'UTC' };
    const now = at('2026-05-01T12:05:00Z');
    expect(planTick(hourly, at('2026-05-01T12:04:30Z'), now, 'latest')).toEqual({
      fire: at('2026-05-01T12:04:30Z'),
      missedFrom: null,
      next: at('2026-05-01T12:10:00Z'),
    });
    expect(planTick(hourly, at('2026-05-01T10:00:00Z'), now, 'latest')).toEqual({
      fire: at('2026-05-01T12:00:00Z'),
      missedFrom: at('2026-05-01T10:00:00Z'),
      next: at('2026-05-01T12:10:00Z'),
    });
    expect(planTick(hourly, at('2026-05-01T10:00:00Z'), at('2026-05-01T12:09:00Z'), 'none')).toEqual({
      fire: null,
      missedFrom: at('2026-05-01T10:00:00Z'),
      next: at('2026-05-01T12:10:00Z'),
    });
  });

  it('renders {{scheduledAt}} as the tick in ISO', () => {
    expect(renderScheduledGoal('report for {{scheduledAt}} ({{ scheduledAt }})', at('2026-05-01T12:00:00Z'))).toBe(
      'report for 2026-05-01T12:00:00.000Z (2026-05-01T12:00:00.000Z)',
    );
  });
});
