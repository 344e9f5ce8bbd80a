'use client';

import { decodeWireEvent, parseWireEvent, type ClientEvent } from '@looplane/events';
import { useEffect, useRef, useState } from 'react';
import type { LineFilter } from '@/components/sessions/main-line';
import { TimelineBuilder, type TimelineItem } from '@/lib/timeline';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** What arrived, checked: gaps and duplicates must stay zero (the e2e test reads them). */
export interface StreamStats {
  received: number;
  lastEventNo: number;
  gaps: number;
  duplicates: number;
}

/**
 * Follows `/api/runs/{runId}/stream`. EventSource reconnects by itself and sends the last `id:` as
 * `Last-Event-ID`, so the server resumes exactly after it. Each event is read through the shared
 * decoder (`@looplane/events`: typed, upcast; a type this build does not know comes out as an
 * unknown event, never a throw), folded into timeline items and flushed to React at most once per
 * animation frame (a streaming model emits many deltas).
 */
export function useRunEvents(runId: string, onEvent?: (event: ClientEvent) => void, line?: LineFilter) {
  const [snapshot, setSnapshot] = useState<{ items: TimelineItem[]; stats: StreamStats; state: StreamState }>({
    items: [],
    stats: { received: 0, lastEventNo: 0, gaps: 0, duplicates: 0 },
    state: 'connecting',
  });
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  // A run with branches shows one line (its main line): the stream carries every branch's events.
  const lineRef = useRef(line);
  useEffect(() => {
    lineRef.current = line;
  });
  const lineKey = line?.key ?? '';

  useEffect(() => {
    const builder = new TimelineBuilder();
    const stats: StreamStats = { received: 0, lastEventNo: 0, gaps: 0, duplicates: 0 };
    let state: StreamState = 'connecting';
    let frame = 0;
    const flush = () => {
      frame = 0;
      setSnapshot({ items: [...builder.items], stats: { ...stats }, state });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(flush);
    };
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/stream`);
    source.onopen = () => {
      state = 'live';
      schedule();
    };
    source.onerror = () => {
      state = source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting';
      schedule();
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const event = decodeWireEvent(parseWireEvent(JSON.parse(message.data)));
      if (event.eventNo <= stats.lastEventNo) {
        stats.duplicates++;
      } else {
        if (event.eventNo !== stats.lastEventNo + 1) stats.gaps++;
        stats.lastEventNo = event.eventNo;
        stats.received++;
        if (!lineRef.current || lineRef.current.accepts(event)) builder.add(event);
        latest.current?.(event);
      }
      schedule();
    };
    return () => {
      source.close();
      if (frame) cancelAnimationFrame(frame);
    };
    // The line changed (a first fork, a promote): follow again from the start to rebuild the timeline.
  }, [runId, lineKey]);

  return snapshot;
}
