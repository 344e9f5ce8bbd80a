import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, formatTokens, runDuration } from './run-format';

describe('run formatting', () => {
  it('formats money from micro-dollars', () => {
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(4200)).toBe('$0.0042');
    expect(formatCost(18)).toBe('$0.000018');
    expect(formatCost(1_250_000)).toBe('$1.25');
    expect(formatCost(1_204_000_000)).toBe('$1,204');
  });

  it('formats tokens and durations coarsely', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_345)).toBe('12k');
    expect(formatTokens(4_100_000)).toBe('4.1M');
    expect(formatDuration(400)).toBe('0.4 s');
    expect(formatDuration(184_000)).toBe('3 min 4 s');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
  });

  it('measures a run from its start, or to now while it runs', () => {
    const createdAt = new Date(1000);
    expect(runDuration({ createdAt, startedAt: new Date(2000), finishedAt: new Date(5000) }, 9999)).toBe(3000);
    expect(runDuration({ createdAt, startedAt: null, finishedAt: null }, 4000)).toBe(3000);
  });
});
