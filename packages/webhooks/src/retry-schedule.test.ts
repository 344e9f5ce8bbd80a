import { describe, expect, it } from 'vitest';
import { retryDelayMs, WEBHOOK_RETRY_SCHEDULE_MS } from './retry-schedule';

describe('the retry schedule', () => {
  it('waits 5 s, then 30 s, then backs off; the attempts span about 24 hours', () => {
    expect(retryDelayMs(1)).toBe(5_000);
    expect(retryDelayMs(2)).toBe(30_000);
    const total = WEBHOOK_RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(total / 3_600_000).toBeGreaterThan(23);
    expect(total / 3_600_000).toBeLessThanOrEqual(24);
    for (let i = 1; i < WEBHOOK_RETRY_SCHEDULE_MS.length; i++) expect(WEBHOOK_RETRY_SCHEDULE_MS[i]).toBeGreaterThanOrEqual(WEBHOOK_RETRY_SCHEDULE_MS[i - 1]!);
  });

  it('ends after the last entry', () => {
    expect(retryDelayMs(WEBHOOK_RETRY_SCHEDULE_MS.length)).toBe(28_800_000);
    expect(retryDelayMs(WEBHOOK_RETRY_SCHEDULE_MS.length + 1)).toBeNull();
  });

  it('scales every wait', () => {
    expect(retryDelayMs(1, 0.001)).toBe(5);
    expect(retryDelayMs(3, 0.001)).toBe(120);
  });
});
