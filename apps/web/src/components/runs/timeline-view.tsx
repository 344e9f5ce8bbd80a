'use client';

import { Bot, CircleAlert, Flag, FolderOpen, GitFork, Info, MessageSquare, RotateCcw, Target, Wrench } from 'lucide-react';
import { createContext, memo, useContext } from 'react';
import { Button } from '@/components/ui/button';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { formatCost } from '@/lib/run-format';
import type { TimelineItem, ToolStatus } from '@/lib/timeline';

const TOOL_TONE: Record<ToolStatus, BadgeTone> = {
  requested: 'neutral',
  awaiting_approval: 'warning',
  running: 'accent',
  ok: 'success',
  failed: 'danger',
  rejected: 'danger',
  denied: 'danger',
  interrupted: 'warning',
};
const FINISH_TONE: Record<string, BadgeTone> = { succeeded: 'success', failed: 'danger', cancelled: 'neutral' };

function time(at: string): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** What a row offers besides its content: "Files at #N", "Restore files to here" and "Fork from here" (absent when not allowed). */
export interface RowActions {
  onFork?: (seq: number) => void;
  onShowFiles?: (seq: number) => void;
  onRestore?: (seq: number) => void;
}
/** Given by the list, so rows stay memoised on their item alone. */
export const RowActionsContext = createContext<RowActions>({});
/** The virtualiser's measuring ref and the row's index in the list. */
interface Placement {
  index: number;
  measure: (element: HTMLElement | null) => void;
}

function Actions({ item }: { item: TimelineItem }) {
  const { onFork, onShowFiles, onRestore } = useContext(RowActionsContext);
  if (!onFork && !onShowFiles && !onRestore) return null;
  const blocked = item.forkBlocker !== null;
  // Offered where an event recorded files (a call that changed them, a restore): the state worth going back to.
  const hasFiles = (item.kind === 'tool' || item.kind === 'notice') && item.commit !== undefined;
  return (
    <span className="flex shrink-0 items-start gap-1">
      {onShowFiles ? (
        <Tooltip content={`The workspace files as they were at event #${item.seq}`}>
          <Button size="sm" variant="ghost" aria-label={`Files at event #${item.seq}`} onClick={() => onShowFiles(item.seq)} data-testid="files-at-event">
            <FolderOpen aria-hidden className="size-3" />
          </Button>
        </Tooltip>
      ) : null}
      {onRestore && hasFiles ? (
        <Tooltip content={`Put the branch’s files back as they were at event #${item.seq}`}>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Restore files to event #${item.seq}`}
            onClick={() => onRestore(item.seq)}
            data-testid="restore-to-event"
          >
            <RotateCcw aria-hidden className="size-3" />
          </Button>
        </Tooltip>
      ) : null}
      {onFork ? (
        // aria-disabled, not disabled: a blocked fork stays focusable, so its reason (the tooltip) is reachable by keyboard.
        <Tooltip content={item.forkBlocker ?? `Fork a new branch from event #${item.seq}`}>
          <Button
            size="sm"
            variant="ghost"
            aria-disabled={blocked}
            className={blocked ? 'cursor-not-allowed opacity-50 hover:bg-transparent' : undefined}
            aria-label={`Fork from event #${item.seq}`}
            onClick={() => (blocked ? undefined : onFork(item.seq))}
            data-testid="fork-from-here"
          >
            <GitFork aria-hidden className="size-3" />
          </Button>
        </Tooltip>
      ) : null}
    </span>
  );
}

function Row({ icon, children, item, place }: { icon: React.ReactNode; children: React.ReactNode; item: TimelineItem; place: Placement }) {
  return (
    <li
      ref={place.measure}
      data-index={place.index}
      // Focused by the run page's j/k (roving focus: out of the Tab order, reachable by keys).
      tabIndex={-1}
      className="group flex gap-3 border-b border-border px-4 py-2.5 focus:bg-surface-2/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:ring-inset"
      data-testid="timeline-item"
      data-kind={item.kind}
      data-seq={item.seq}
      data-session-id={item.sessionId}
      data-event-no={item.eventNo}
    >
      <span className="mt-0.5 shrink-0 text-muted">{icon}</span>
      <div className="min-w-0 flex-1">{children}</div>
      <Actions item={item} />
      <time className="shrink-0 text-[11px] text-muted tabular-nums" dateTime={item.at}>
        {time(item.at)}
      </time>
    </li>
  );
}

/** One timeline row; memoised, so a streamed delta re-renders only its own item. */
export const TimelineEntry = memo(function TimelineEntry({ item, index, measure }: { item: TimelineItem } & Placement) {
  const place = { index, measure };
  const icon = 'size-4';
  switch (item.kind) {
    case 'started':
      return (
        <Row item={item} place={place} icon={<Target aria-hidden className={icon} />}>
          <p className="text-xs font-medium text-muted">Run started</p>
          <p className="whitespace-pre-wrap">{item.goal}</p>
        </Row>
      );
    case 'message':
      return (
        <Row item={item} place={place} icon={<MessageSquare aria-hidden className={icon} />}>
          <p className="text-xs font-medium text-muted">{item.role === 'user' ? 'Message' : 'Notice'}</p>
          <p className="whitespace-pre-wrap" data-testid="timeline-message">
            {item.text}
          </p>
        </Row>
      );
    case 'assistant':
      return (
        <Row item={item} place={place} icon={<Bot aria-hidden className={icon} />}>
          <p className="flex items-center gap-2 text-xs font-medium text-muted">
            Model · turn {item.turn + 1}
            {item.streaming ? <Badge tone="accent">streaming</Badge> : null}
            {item.costMicros !== undefined ? (
              <span className="font-normal tabular-nums" data-testid="timeline-cost">
                {item.inputTokens ?? 0} in · {item.outputTokens ?? 0} out · {formatCost(item.costMicros)}
              </span>
            ) : null}
          </p>
          {item.text ? <p className="whitespace-pre-wrap">{item.text}</p> : null}
          {item.error ? <p className="text-danger">{item.error}</p> : null}
        </Row>
      );
    case 'tool':
      return (
        <Row item={item} place={place} icon={<Wrench aria-hidden className={icon} />}>
          <p className="flex flex-wrap items-center gap-2 text-xs">
            <span className="font-mono font-medium">{item.name}</span>
            <Badge tone={TOOL_TONE[item.status]} data-testid="timeline-tool-status">
              {item.status.replace('_', ' ')}
            </Badge>
            {item.exitCode !== undefined ? (
              <Badge tone={item.exitCode === 0 ? 'success' : 'danger'} data-testid="timeline-exit-code">
                exit {item.exitCode}
              </Badge>
            ) : null}
            {item.commit ? (
              <span className="font-mono text-muted" title={item.commit} data-testid="timeline-commit">
                commit {item.commit.slice(0, 7)}
              </span>
            ) : null}
            {item.reason ? <span className="text-muted">{item.reason}</span> : null}
          </p>
          <details className="mt-1 text-xs">
            <summary className="cursor-pointer text-muted">arguments</summary>
            <pre className="mt-1 overflow-x-auto rounded bg-surface-2 p-2 font-mono">{JSON.stringify(item.args, null, 2)}</pre>
          </details>
          {item.output !== undefined ? (
            <pre className="mt-1 max-h-64 overflow-auto rounded bg-surface-2 p-2 font-mono text-xs whitespace-pre-wrap" data-testid="timeline-tool-output">
              {item.output || '(no output)'}
              {item.truncated ? '\n… (truncated)' : ''}
            </pre>
          ) : null}
        </Row>
      );
    case 'notice':
      return (
        <Row item={item} place={place} icon={item.tone === 'info' ? <Info aria-hidden className={icon} /> : <CircleAlert aria-hidden className={icon} />}>
          <p
            className={cn('text-xs', item.tone === 'warning' && 'text-warning', item.tone === 'danger' && 'text-danger', item.tone === 'info' && 'text-muted')}
          >
            {item.text}
          </p>
        </Row>
      );
    case 'finished':
      return (
        <Row item={item} place={place} icon={<Flag aria-hidden className={icon} />}>
          <p className="flex items-center gap-2 text-xs font-medium text-muted">
            Run finished <Badge tone={FINISH_TONE[item.status] ?? 'neutral'}>{item.status}</Badge>
          </p>
          {item.result ? <p className="whitespace-pre-wrap">{item.result}</p> : null}
          {item.error ? <p className="whitespace-pre-wrap text-danger">{item.error}</p> : null}
        </Row>
      );
  }
});
