import type { WireEvent } from '@looplane/events';
import { describe, expect, it } from 'vitest';
import { loadCachedEvents, MAX_CACHED_EVENTS, saveCachedEvents, type EventStore } from './run-event-cache';

/** A Storage over a Map that refuses values above `quota` characters, as a browser does past its quota. */
function memoryStore(quota = Infinity): EventStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      if (value.length > quota) throw new DOMException('quota', 'QuotaExceededError');
      map.set(key, value);
    },
    removeItem: (key) => void map.delete(key),
  };
}
const event = (eventNo: number): WireEvent => ({
  eventNo,
  sessionId: 's',
  seq: eventNo,
  type: 'message.added',
  version: 1,
  payload: { role: 'user', text: `m${eventNo}` },
  createdAt: '2026-01-01T00:00:00.000Z',
});
const events = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));

describe('the run page’s event cache', () => {
  it('gives back what was saved for the run, and nothing for another run', () => {
    const store = memoryStore();
    saveCachedEvents(store, 'run-a', events(1, 20));
    expect(loadCachedEvents(store, 'run-a')).toEqual(events(1, 20));
    expect(loadCachedEvents(store, 'run-b')).toEqual([]);
  });

  it('keeps the newest events only, fewer when the store is full, always contiguous', () => {
    const store = memoryStore();
    saveCachedEvents(store, 'r', events(1, MAX_CACHED_EVENTS + 500));
    const kept = loadCachedEvents(store, 'r');
    expect(kept).toHaveLength(MAX_CACHED_EVENTS);
    expect(kept[0]!.eventNo).toBe(501);
    expect(kept.at(-1)!.eventNo).toBe(MAX_CACHED_EVENTS + 500);

    const small = memoryStore(20_000);
    saveCachedEvents(small, 'r', events(1, 1000));
    const fitted = loadCachedEvents(small, 'r');
    expect(fitted.length).toBeGreaterThan(0);
    expect(fitted.length).toBeLessThan(1000);
    expect(fitted.at(-1)!.eventNo).toBe(1000);
  });

  it('drops what it cannot trust: damaged text, a gap, a non-event', () => {
    const store = memoryStore();
    for (const raw of ['{not json', JSON.stringify([event(1), event(3)]), JSON.stringify([{ eventNo: 1 }])]) {
      store.map.set('looplane:run-events:r', raw);
      expect(loadCachedEvents(store, 'r')).toEqual([]);
      expect(store.map.has('looplane:run-events:r')).toBe(false);
    }
  });
});
