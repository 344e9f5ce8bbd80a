import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './restart-backoff';

describe('RestartBackoff', () => {
  it('doubles from 0.5 s up to 30 s while the child keeps dying quickly', () => {
    const backoff = new RestartBackoff();
    const delays = Array.from({ length: 9 }, () => backoff.next(100));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts over once the child stayed up for a minute', () => {
    const backoff = new RestartBackoff();
    backoff.next(0);
    backoff.next(0);
    expect(backoff.next(59_999)).toBe(2000);
    expect(backoff.next(60_000)).toBe(500);
    expect(backoff.next(10)).toBe(1000);
  });

  it('takes its bounds as options', () => {
    const backoff = new RestartBackoff({ initialMs: 10, maxMs: 25, resetAfterMs: 100 });
    expect([backoff.next(0), backoff.next(0), backoff.next(0), backoff.next(100)]).toEqual([10, 20, 25, 10]);
  });
});
