import { describe, expect, it } from 'vitest';
import { everyText, formatInZone, scheduleState, tickTone, timingText } from './schedule-format';

describe('scheduleState', () => {
  const base = { consecutiveFailures: 0, pauseAfterFailures: 5 };
  it('tells a person’s pause from one the schedule made itself', () => {
    expect(scheduleState({ ...base, enabled: true, pausedReason: null }).kind).toBe('enabled');
    expect(scheduleState({ ...base, enabled: false, pausedReason: null })).toMatchObject({ kind: 'paused', reason: null });
    expect(scheduleState({ ...base, enabled: false, pausedReason: '5 runs failed in a row' })).toMatchObject({
      kind: 'paused-automatically',
      tone: 'danger',
      reason: '5 runs failed in a row',
    });
  });
});

describe('timing', () => {
  it('writes intervals in the two largest units', () => {
    expect(everyText(45)).toBe('every 45 s');
    expect(everyText(300)).toBe('every 5 min');
    expect(everyText(3661)).toBe('every 1 h 1 min');
    expect(everyText(108_000)).toBe('every 1 d 6 h');
  });
  it('names a cron with its zone', () => {
    expect(timingText({ cron: '0 9 * * 1-5', everySeconds: null, timezone: 'Europe/Berlin' })).toBe('cron 0 9 * * 1-5 (Europe/Berlin)');
    expect(timingText({ cron: null, everySeconds: 60, timezone: 'UTC' })).toBe('every 1 min');
  });
});

describe('formatInZone', () => {
  it('shows the wall time of the schedule’s zone', () => {
    const at = new Date('2026-03-29T01:30:00Z');
    expect(formatInZone(at, 'Europe/Berlin', 'en-GB')).toContain('03:30:00');
    expect(formatInZone(at, 'UTC', 'en-GB')).toContain('01:30:00');
    expect(formatInZone(at, 'Not/AZone', 'en-GB')).toContain('Not/AZone unknown here');
  });
});

describe('tickTone', () => {
  it('follows the outcome, then the run', () => {
    expect(tickTone('failed', null)).toBe('danger');
    expect(tickTone('skipped', null)).toBe('neutral');
    expect(tickTone('started', 'running')).toBe('accent');
    expect(tickTone('started', 'succeeded')).toBe('success');
    expect(tickTone('started', 'failed')).toBe('danger');
  });
});
