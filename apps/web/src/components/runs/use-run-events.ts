'use client';

import { decodeWireEvent, parseWireEvent, type ClientEvent, type WireEvent } from '@looplane/events';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LineFilter } from '@/components/sessions/branch-line';
import { TimelineBuilder, type TimelineItem } from '@/lib/timeline';
import { useTRPC } from '@/trpc/client';
import { loadCachedEvents, saveCachedEvents, sessionStore } from './run-event-cache';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** What the page holds, checked: gaps and duplicates must stay zero (the e2e test reads them). */
export interface StreamStats {
  /** Events the page holds (a contiguous range of event numbers ending at `lastEventNo`). */
  received: number;
  lastEventNo: number;
  gaps: number;
  duplicates: number;
}

/** A run the page holds nothing of opens this many events before its end; older ones come a page at a time. */
const TAIL = 1000;
const PAGE = 1000;
const SAVE_DELAY_MS = 1000;
/** The position of a stream opened with `?tail=` until its first event arrives. */
const UNKNOWN = -1;

interface Held {
  runId: string;
  wire: WireEvent[];
  decoded: ClientEvent[];
}

interface Snapshot {
  items: TimelineItem[];
  stats: StreamStats;
  state: StreamState;
  /** The first event number the page holds (1: it holds the run from its start). */
  firstEventNo: number;
  loadingEarlier: boolean;
}

/**
 * The run's events on the page: what this tab held before a reload (sessionStorage, keyed by run
 * id), then `/api/runs/{runId}/stream` after the last of them (`?lastEventId=`; EventSource sends
 * `Last-Event-ID` itself when it reconnects), so a reload never replays from event 0. A run the
 * tab holds nothing of opens at once with `?tail=TAIL` (its last TAIL events; the first one that
 * arrives is where the page starts) and pages back with `runs.events` when asked (`loadEarlier`). Events are decoded by
 * `@looplane/events`, folded into timeline items for one line (a branch: `line`; its change
 * refolds what is held, with no new request) and flushed to React once per animation frame.
 */
export function useRunEvents(options: {
  teamId: string;
  runId: string;
  /** The run's last event number; undefined until known. */
  lastEventNo: number | undefined;
  line?: LineFilter;
  onEvent?: (event: ClientEvent) => void;
}) {
  const { teamId, runId, lastEventNo, line, onEvent } = options;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [snapshot, setSnapshot] = useState<Snapshot>({
    items: [],
    stats: { received: 0, lastEventNo: 0, gaps: 0, duplicates: 0 },
    state: 'connecting',
    firstEventNo: 1,
    loadingEarlier: false,
  });
  const latest = useRef({ onEvent, line, lastEventNo });
  useEffect(() => {
    latest.current = { onEvent, line, lastEventNo };
  });
  const held = useRef<Held>({ runId, wire: [], decoded: [] });
  const builder = useRef(new TimelineBuilder());
  const stats = useRef<StreamStats>({ received: 0, lastEventNo: 0, gaps: 0, duplicates: 0 });
  const status = useRef<{ state: StreamState; loadingEarlier: boolean }>({ state: 'connecting', loadingEarlier: false });
  const frame = useRef(0);

  const flushNow = useCallback(() => {
    frame.current = 0;
    const wire = held.current.wire;
    stats.current.received = wire.length;
    setSnapshot({
      items: [...builder.current.items],
      stats: { ...stats.current, lastEventNo: Math.max(0, stats.current.lastEventNo) },
      state: status.current.state,
      firstEventNo: wire[0]?.eventNo ?? 1,
      loadingEarlier: status.current.loadingEarlier,
    });
  }, []);
  const flush = useCallback(() => {
    if (frame.current === 0) frame.current = requestAnimationFrame(flushNow);
  }, [flushNow]);
  // Folds what is held for the current line from scratch (a new line, an earlier page).
  const refold = useCallback(() => {
    const { wire, decoded } = held.current;
    const next = new TimelineBuilder({ fromStart: (wire[0]?.eventNo ?? 1) === 1 });
    const accepts = latest.current.line;
    for (const event of decoded) if (!accepts || accepts.accepts(event)) next.add(event);
    builder.current = next;
  }, []);

  // A tab that holds events of this run waits for the run's last event number (to check what it
  // holds); one that holds none opens the stream at once, at the run's last TAIL events.
  const [holdsSome] = useState(() => loadCachedEvents(sessionStore(), runId).length > 0);
  const ready = lastEventNo !== undefined || !holdsSome;
  useEffect(() => {
    if (!ready) return;
    const store = sessionStore();
    const known = latest.current.lastEventNo;
    let wire = loadCachedEvents(store, runId);
    // A cache from past the run's end is not this run's (a restored database): start over.
    if (wire.length > 0 && (known === undefined || wire[wire.length - 1]!.eventNo > known)) wire = [];
    const after = wire.length > 0 ? wire[wire.length - 1]!.eventNo : null;
    held.current = { runId, wire, decoded: wire.map(decodeWireEvent) };
    // UNKNOWN until a tail stream's first event says where the page starts.
    stats.current = { received: wire.length, lastEventNo: after ?? UNKNOWN, gaps: 0, duplicates: 0 };
    status.current = { state: 'connecting', loadingEarlier: false };
    refold();
    flush();

    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(saveTimer);
      saveTimer = undefined;
      if (held.current.runId === runId) saveCachedEvents(store, runId, held.current.wire);
    };
    const scheduleSave = () => {
      saveTimer ??= setTimeout(save, SAVE_DELAY_MS);
    };
    window.addEventListener('pagehide', save);

    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/stream?${after === null ? `tail=${TAIL}` : `lastEventId=${after}`}`);
    source.onopen = () => {
      status.current.state = 'live';
      flush();
    };
    source.onerror = () => {
      status.current.state = source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting';
      flush();
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const data = parseWireEvent(JSON.parse(message.data));
      const s = stats.current;
      // A tail stream's first event is where the page starts (EventSource resumes after it on reconnect).
      const first = s.lastEventNo === UNKNOWN;
      if (first) s.lastEventNo = data.eventNo - 1;
      if (data.eventNo <= s.lastEventNo) {
        s.duplicates++;
      } else {
        if (data.eventNo !== s.lastEventNo + 1) {
          s.gaps++;
          // What is held must stay contiguous: keep only what follows the gap.
          held.current = { runId, wire: [], decoded: [] };
          refold();
        }
        s.lastEventNo = data.eventNo;
        const event = decodeWireEvent(data);
        held.current.wire.push(data);
        held.current.decoded.push(event);
        const accepts = latest.current.line;
        // The first event held decides whether the fold starts at the run's beginning.
        if (first) refold();
        else if (!accepts || accepts.accepts(event)) builder.current.add(event);
        latest.current.onEvent?.(event);
        scheduleSave();
      }
      flush();
    };
    return () => {
      source.close();
      save();
      window.removeEventListener('pagehide', save);
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [runId, ready, refold, flush]);

  // Another line (a branch picked, a fork, a promote): refold what is held, nothing is fetched again.
  const lineKey = line?.key ?? '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the line changes; refold reads the line itself (from a ref)
  useEffect(() => {
    refold();
    flush();
  }, [lineKey, refold, flush]);

  /** Fetches the page of events before the first one held (`runs.events` with `after`). */
  const loadEarlier = useCallback(async () => {
    const start = held.current;
    const first = start.wire[0]?.eventNo ?? 1;
    if (first <= 1 || status.current.loadingEarlier) return;
    status.current.loadingEarlier = true;
    flush();
    try {
      const after = Math.max(0, first - 1 - PAGE);
      const page = await queryClient.fetchQuery({ ...trpc.runs.events.queryOptions({ teamId, runId, after, limit: first - 1 - after }), staleTime: Infinity });
      // Still the same run and nothing was dropped meanwhile: prepend and refold.
      if (held.current !== start || (start.wire[0]?.eventNo ?? 1) !== first) return;
      const wire = page.events.map(parseWireEvent).filter((e) => e.eventNo < first);
      held.current = { runId, wire: [...wire, ...start.wire], decoded: [...wire.map(decodeWireEvent), ...start.decoded] };
      refold();
    } finally {
      status.current.loadingEarlier = false;
      flush();
    }
  }, [queryClient, trpc, teamId, runId, refold, flush]);

  return { ...snapshot, loadEarlier };
}
