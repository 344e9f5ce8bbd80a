'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import type { RunRow } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { formatCost, formatDuration, runDuration, STATUS_TONE } from '@/lib/run-format';
import { useNow } from '@/lib/use-now';

const ROW_HEIGHT = 40;
/** Ask for the next page when this few loaded rows are left below the viewport. */
const PREFETCH_ROWS = 30;
const GRID = 'grid grid-cols-[112px_minmax(0,1fr)_140px_180px_80px_96px_96px] items-center gap-3 px-4';

/**
 * The runs list: only the rows in view are in the DOM (fixed row height), so thousands of runs
 * scroll smoothly; the next page loads as the end comes into view.
 */
export function RunsTable(props: {
  base: string;
  rows: RunRow[];
  loading: boolean;
  hasNextPage: boolean;
  fetchingNextPage: boolean;
  fetchNextPage: () => void;
}) {
  const { rows, hasNextPage, fetchingNextPage, fetchNextPage } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const now = useNow(1000);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const visible = virtualizer.getVirtualItems();
  const end = visible.length > 0 ? visible[visible.length - 1]!.index + 1 : 0;
  useEffect(() => {
    if (hasNextPage && !fetchingNextPage && end >= rows.length - PREFETCH_ROWS) fetchNextPage();
  }, [end, rows.length, hasNextPage, fetchingNextPage, fetchNextPage]);

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="runs-table" data-row-count={rows.length}>
      <div className={`${GRID} h-8 shrink-0 border-b border-border bg-surface-2/60 text-[11px] font-medium tracking-wide text-muted uppercase`}>
        <span>Status</span>
        <span>Goal</span>
        <span>Agent</span>
        <span>Creator</span>
        <span className="text-right">Cost</span>
        <span className="text-right">Duration</span>
        <span className="text-right">Created</span>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto" data-testid="runs-scroller">
        {props.loading ? <p className="px-4 py-8 text-center text-muted">Loading runs…</p> : null}
        {!props.loading && rows.length === 0 ? (
          <p className="px-4 py-8 text-center text-muted" data-testid="runs-empty">
            No runs match. Start one with “New run”.
          </p>
        ) : null}
        <div style={{ height: visible[0]?.start ?? 0 }} />
        {visible
          .map(({ index }) => rows[index]!)
          .map((run) => (
            <Link
              key={run.id}
              href={`${props.base}/runs/${run.id}`}
              data-testid="run-row"
              data-run-id={run.id}
              data-status={run.status}
              style={{ height: ROW_HEIGHT }}
              className={`${GRID} border-b border-border text-[13px] hover:bg-surface-2/40`}
            >
              <span>
                <Badge tone={STATUS_TONE[run.status]} data-testid="run-row-status">
                  {run.status}
                  {run.waitReason && run.status === 'waiting' ? ` · ${run.waitReason}` : ''}
                </Badge>
              </span>
              <span className="truncate" title={run.goal}>
                {run.goal}
              </span>
              <span className="truncate text-muted">{run.agent?.name ?? '—'}</span>
              <span className="truncate text-muted" title={run.viaToken ? 'via an API token' : undefined}>
                {run.createdBy?.email ?? 'system'}
                {run.viaToken ? ' (token)' : ''}
              </span>
              <span className="text-right tabular-nums">{formatCost(run.spentCostMicros)}</span>
              <span className="text-right text-muted tabular-nums">{now === null ? '' : formatDuration(runDuration(run, now))}</span>
              <span className="text-right text-muted" title={formatDateTime(run.createdAt)}>
                {now === null ? '' : formatRelative(run.createdAt, now)}
              </span>
            </Link>
          ))}
        <div style={{ height: virtualizer.getTotalSize() - (visible.length > 0 ? visible[visible.length - 1]!.end : 0) }} />
        {fetchingNextPage ? <p className="px-4 py-2 text-center text-xs text-muted">Loading more…</p> : null}
      </div>
    </div>
  );
}
