import { describe, expect, it } from 'vitest';
import { formatDate, formatRelative } from './format';

describe('formatRelative', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms);

  it('uses coarse units', () => {
    expect(formatRelative(ago(10_000), now)).toBe('just now');
    expect(formatRelative(ago(5 * 60_000), now)).toBe('5 min ago');
    expect(formatRelative(ago(3 * 3_600_000), now)).toBe('3 h ago');
    expect(formatRelative(ago(2 * 86_400_000), now)).toBe('2 d ago');
  });

  it('falls back to the date for old or future times', () => {
    expect(formatRelative(ago(90 * 86_400_000), now)).toBe(formatDate(ago(90 * 86_400_000)));
    expect(formatRelative(ago(-60_000), now)).toBe(formatDate(ago(-60_000)));
  });
});
