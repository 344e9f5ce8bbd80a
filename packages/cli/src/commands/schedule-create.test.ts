import { describe, expect, it } from 'vitest';
import { everySecondsOf, scheduleBody } from './schedule-create';

describe('schedule create flags', () => {
  it('--every takes seconds or a number with a unit', () => {
    expect(['45', '90s', '15m', '2h', '1d'].map(everySecondsOf)).toEqual([45, 90, 900, 7200, 86_400]);
    for (const wrong of ['0', '-5', '1.5', '10w', 'm', '', 'soon']) expect(() => everySecondsOf(wrong), wrong).toThrow(/--every takes seconds/);
  });

  it('sends the API’s defaults and only the options given', () => {
    expect(scheduleBody({ name: ' nightly ', agent: 'a', cron: '0 3 * * *', goal: 'Tidy up' })).toEqual({
      name: 'nightly',
      cron: '0 3 * * *',
      timezone: 'UTC',
      goal: 'Tidy up',
      overlap: 'skip',
      catchUp: 'latest',
      enabled: true,
      pauseAfterFailures: 5,
    });
    expect(scheduleBody({ name: 'n', graph: 'g', every: '5m', goal: 'x', paused: true, 'max-cost': '0.5', 'from-session': 'cm1abc@3' })).toMatchObject({
      everySeconds: 300,
      enabled: false,
      budget: { costMicros: 500_000, onExceed: 'wait' },
      workspace: { session: { sessionId: 'cm1abc', atEvent: 3 } },
    });
  });

  it('refuses what the schedule cannot be', () => {
    const base = { name: 'n', agent: 'a', every: '60', goal: 'g' };
    expect(() => scheduleBody({ ...base, 'pause-after': '0' })).toThrow('--pause-after must be a whole number of 1 or more');
    expect(() => scheduleBody({ ...base, 'on-exceed': 'never' })).toThrow('--on-exceed must be wait or fail');
    expect(() => scheduleBody({ ...base, ref: 'main' })).toThrow('--ref goes with --repo URL');
    expect(() => scheduleBody({ ...base, archive: 'seed.tar' })).toThrow('a schedule takes --repo or --from-session, not --archive');
    expect(() => scheduleBody({ ...base, goal: '  ' })).toThrow('--goal TEXT is required');
  });
});
