'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useCallback, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { Button } from '@/components/ui/button';
import type { TimelineItem } from '@/lib/timeline';
import { RowActionsContext, TimelineEntry, type RowActions } from './timeline-view';

/** What the run page's keys do with the timeline (j/k, f, o, l, e). */
export interface TimelineControls {
  /** Focuses the next (1) or previous (-1) row: from the focused one, else from the rows in view. */
  move: (delta: 1 | -1) => void;
  /** The row holding focus (a row, or a button in it), if any. */
  focusedItem: () => TimelineItem | null;
  /** Scrolls to the latest event and follows new ones again. */
  latest: () => void;
  /** Pages back to the events before the first one held, if there are any. */
  earlier: () => void;
}

/** Within this many pixels of the end counts as "at the bottom". */
const SLACK_PX = 48;
/** A row's height before it is measured (most are one or two lines). */
const ESTIMATE_PX = 64;
/** A scroll this soon after the reader's wheel, touch, key or pointer is theirs. */
const USER_SCROLL_MS = 1000;

/**
 * The run's one timeline, virtualised (TanStack Virtual): only the rows in view are in the DOM,
 * each measured as it renders (rows differ in height: tool output, long messages), so 10,000
 * events open and scroll smoothly. While the reader is at the bottom, new events keep it there;
 * scrolling up stops that until they return (or press "Latest"). Above the first row held,
 * "Earlier events" pages back, keeping the row in view where it was.
 */
export function RunTimeline({
  items,
  empty,
  hasEarlier,
  loadingEarlier,
  onLoadEarlier,
  onFork,
  onShowFiles,
  onRestore,
  controls,
}: {
  items: TimelineItem[];
  controls?: Ref<TimelineControls>;
  empty: React.ReactNode;
  hasEarlier: boolean;
  loadingEarlier: boolean;
  onLoadEarlier: () => void;
} & RowActions) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATE_PX,
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: 12,
  });
  const stuck = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  // The first row in view when "Earlier events" was pressed: scrolled back to once they arrive.
  const anchor = useRef<{ key: string; index: number } | null>(null);

  const toEnd = useCallback(() => {
    if (items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, virtualizer]);

  useLayoutEffect(() => {
    if (anchor.current !== null) {
      const { key, index: was } = anchor.current;
      const index = items.findIndex((item) => item.key === key);
      // Moved down: the earlier rows are in (a refold alone keeps it where it was).
      if (index > was) {
        anchor.current = null;
        virtualizer.scrollToIndex(index, { align: 'start' });
        return;
      }
    }
    if (stuck.current) toEnd();
  }, [items, toEnd, virtualizer]);

  // Following the end holds whatever changes size after the scroll above: rows measured taller than
  // their estimate as they render (on a loaded machine, after the virtualiser has stopped adjusting),
  // the header above settling, the window. Each change while following goes back to the end.
  const hasItems = items.length > 0;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const follow = () => {
      if (!stuck.current || anchor.current !== null) return;
      if (element.scrollHeight - element.scrollTop - element.clientHeight > 1) element.scrollTop = element.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(element);
    // The rows' container, whose height is the virtualiser's total (it exists once there are rows).
    const content = hasItems ? element.firstElementChild : null;
    if (content) observer.observe(content);
    return () => observer.disconnect();
  }, [hasItems]);

  // When the reader last touched the timeline (wheel, touch, keys, the scrollbar). The virtualiser
  // also moves the view (measuring rows above it), so only a move soon after one counts as theirs.
  const touchedAt = useRef(0);
  const touched = () => {
    touchedAt.current = Date.now();
  };
  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const near = element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK_PX;
    if (near) stuck.current = true;
    else if (Date.now() - touchedAt.current < USER_SCROLL_MS) stuck.current = false;
    setAtBottom(near || stuck.current);
  };

  const jumpToBottom = () => {
    stuck.current = true;
    setAtBottom(true);
    toEnd();
  };

  const loadEarlier = () => {
    const first = virtualizer.getVirtualItems()[0];
    const key = first ? items[first.index]?.key : undefined;
    anchor.current = first && key ? { key, index: first.index } : null;
    stuck.current = false;
    onLoadEarlier();
  };

  // A row to focus once the virtualiser has rendered it (it may be scrolled into view first).
  const focusTarget = useRef<number | null>(null);
  const focusPending = (framesLeft = 30) => {
    const index = focusTarget.current;
    if (index === null) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-testid="timeline-item"][data-index="${index}"]`);
    if (row) {
      focusTarget.current = null;
      row.focus({ preventScroll: true });
    } else if (framesLeft > 0) {
      requestAnimationFrame(() => focusPending(framesLeft - 1));
    }
  };
  const focusedIndex = (): number | null => {
    const row = document.activeElement?.closest<HTMLElement>('[data-testid="timeline-item"]');
    return row && scroller.current?.contains(row) ? Number(row.dataset.index) : null;
  };
  useImperativeHandle(controls, () => ({
    move: (delta) => {
      if (items.length === 0) return;
      const inView = virtualizer.getVirtualItems();
      const current = focusedIndex();
      const from = current ?? (delta === 1 ? (inView[0]?.index ?? 0) - 1 : (inView.at(-1)?.index ?? items.length) + 1);
      const index = Math.min(items.length - 1, Math.max(0, from + delta));
      // Reading back through the log stops following new events; reaching the end resumes it.
      stuck.current = index === items.length - 1;
      setAtBottom(stuck.current);
      virtualizer.scrollToIndex(index, { align: 'auto' });
      focusTarget.current = index;
      requestAnimationFrame(() => focusPending());
    },
    focusedItem: () => {
      const index = focusedIndex();
      return index === null ? null : (items[index] ?? null);
    },
    latest: () => jumpToBottom(),
    earlier: () => {
      if (hasEarlier && !loadingEarlier) loadEarlier();
    },
  }));

  const actions = useMemo<RowActions>(() => ({ onFork, onShowFiles, onRestore }), [onFork, onShowFiles, onRestore]);
  const rows = virtualizer.getVirtualItems();

  return (
    <div className="relative min-h-0 flex-1">
      <section
        ref={scroller}
        onScroll={onScroll}
        onWheel={touched}
        onTouchMove={touched}
        onKeyDown={touched}
        onPointerDown={touched}
        // A scrolling region takes keyboard focus (arrow keys and Page Up/Down scroll it; j/k move between rows).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse (WCAG 2.1.1)
        tabIndex={0}
        aria-label="Run timeline"
        className="h-full overflow-y-auto [overflow-anchor:none] focus-visible:ring-2 focus-visible:ring-ring/30 focus-visible:outline-none focus-visible:ring-inset"
        data-testid="run-timeline"
        data-count={items.length}
      >
        {items.length === 0 ? (
          empty
        ) : (
          <RowActionsContext.Provider value={actions}>
            <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
              <ol className="absolute top-0 left-0 w-full" style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
                {rows.map((row) => (
                  <TimelineEntry key={row.key} item={items[row.index]!} index={row.index} measure={virtualizer.measureElement} />
                ))}
              </ol>
            </div>
          </RowActionsContext.Provider>
        )}
      </section>
      {hasEarlier ? (
        // Outside the scroller, so row offsets start at its top (the virtualiser's reckoning).
        <Button
          size="sm"
          variant="secondary"
          className="absolute top-2 left-1/2 -translate-x-1/2 shadow"
          disabled={loadingEarlier}
          onClick={loadEarlier}
          data-testid="timeline-load-earlier"
        >
          <ArrowUp aria-hidden className="size-3.5" /> {loadingEarlier ? 'Loading earlier events…' : 'Earlier events'}
        </Button>
      ) : null}
      {!atBottom ? (
        <Button size="sm" variant="secondary" className="absolute right-6 bottom-4 shadow" onClick={jumpToBottom} data-testid="run-jump-latest">
          <ArrowDown aria-hidden className="size-3.5" /> Latest
        </Button>
      ) : null}
    </div>
  );
}
