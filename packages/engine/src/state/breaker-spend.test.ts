import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addSpend, initialBreakerWindows, recentSpend, SPEND_WINDOW_MS } from './breaker-windows';
import type { BreakerWindows } from './breaker-windows';

/** What recentSpend must equal: every entry in (now - window, now], summed one by one. */
function byHand(added: { atMs: number; tokens: number; costMicros: number }[], nowMs: number) {
  let tokens = 0;
  let costMicros = 0;
  for (const s of added) {
    if (s.atMs <= nowMs - SPEND_WINDOW_MS || s.atMs > nowMs) continue;
    tokens += s.tokens;
    costMicros += s.costMicros;
  }
  return { tokens, costMicros };
}

/** The window after `entries`, added the way the fold adds a model call's spend. */
function windowOf(entries: { atMs: number; tokens: number; costMicros: number }[]): BreakerWindows {
  const w = initialBreakerWindows();
  for (const e of entries) addSpend(w, e.atMs, e.tokens, e.costMicros);
  return w;
}

const entry = fc.record({
  atMs: fc.integer({ min: 0, max: 200_000 }),
  tokens: fc.integer({ min: 0, max: 100_000 }),
  costMicros: fc.integer({ min: 0, max: 10_000 }),
});

describe('recentSpend', () => {
  it('sums the minute up to now exactly as a pass over the window would, times in order or not', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), fc.boolean(), fc.integer({ min: -70_000, max: 70_000 }), (raw, ordered, offset) => {
        const entries = ordered ? [...raw].sort((a, b) => a.atMs - b.atMs) : raw;
        const w = windowOf(entries);
        const nowMs = (entries.at(-1)?.atMs ?? 0) + offset;
        expect(recentSpend(w, nowMs)).toEqual(byHand(w.spend, nowMs));
      }),
      { numRuns: 2_000 },
    );
  });

  it('is empty after a reset and for a now before every entry', () => {
    const w = windowOf([
      { atMs: 1_000, tokens: 5, costMicros: 1 },
      { atMs: 2_000, tokens: 7, costMicros: 2 },
    ]);
    expect(recentSpend(w, 2_000)).toEqual({ tokens: 12, costMicros: 3 });
    expect(recentSpend(w, 1_500)).toEqual({ tokens: 5, costMicros: 1 });
    expect(recentSpend(w, 999)).toEqual({ tokens: 0, costMicros: 0 });
    expect(recentSpend(w, 1_000 + SPEND_WINDOW_MS)).toEqual({ tokens: 7, costMicros: 2 });
  });
});
