import { parseWireEvent, type WireEvent } from '@looplane/events';

/** The most events kept per run: the newest ones (a reload pages back to older ones on demand). */
export const MAX_CACHED_EVENTS = 4000;
const PREFIX = 'looplane:run-events:';

/** The part of `Storage` the cache uses, so a test can hand it a Map-backed one. */
export type EventStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The events a run page holds, kept in the tab's sessionStorage keyed by run id, so a reload
 * opens the stream after the last of them instead of replaying the run from event 0. Only a
 * contiguous run of event numbers is ever stored (the stream's cursor must not skip any), and
 * only its newest MAX_CACHED_EVENTS; what does not fit is dropped, never half-written.
 */
export function loadCachedEvents(store: EventStore | null, runId: string): WireEvent[] {
  const raw = store?.getItem(PREFIX + runId);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('not a list');
    const events = parsed.map(parseWireEvent);
    for (let i = 1; i < events.length; i++) {
      if (events[i]!.eventNo !== events[i - 1]!.eventNo + 1) throw new Error('not contiguous');
    }
    return events;
  } catch {
    // Written by another version of the page, or damaged: the stream has it all again.
    store?.removeItem(PREFIX + runId);
    return [];
  }
}

/** Stores the newest events of `events` (contiguous, ascending); halves them until the store takes them. */
export function saveCachedEvents(store: EventStore | null, runId: string, events: readonly WireEvent[]): void {
  if (!store) return;
  let keep = Math.min(events.length, MAX_CACHED_EVENTS);
  while (keep > 0) {
    try {
      store.setItem(PREFIX + runId, JSON.stringify(events.slice(events.length - keep)));
      return;
    } catch {
      // Over the quota: fewer events (the page can still page back to the rest).
      keep = Math.floor(keep / 2);
    }
  }
  store.removeItem(PREFIX + runId);
}

/** The tab's sessionStorage, or null where there is none (a server render, storage disabled). */
export function sessionStore(): EventStore | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
