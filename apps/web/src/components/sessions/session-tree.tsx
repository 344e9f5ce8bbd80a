'use client';

import { GitBranch, Star } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatCost } from '@/lib/run-format';
import { SESSION_TONE, treeOrder, type SessionNode } from './session-format';

/**
 * The run's branches as an indented tree: fork point (`from #N`), status colour, main line star,
 * event count and own spend. Clicking a row selects the branch; the checkbox picks it for compare.
 * A plain list (no layout engine), so a hundred branches render at once and stay usable.
 */
export function SessionTreeView({
  sessions,
  selected,
  compare,
  onSelect,
  onToggleCompare,
}: {
  sessions: readonly SessionNode[];
  selected: string | null;
  compare: readonly string[];
  onSelect: (id: string) => void;
  onToggleCompare: (id: string) => void;
}) {
  return (
    <ol className="flex flex-col" data-testid="session-tree" data-count={sessions.length}>
      {treeOrder(sessions).map(({ node, depth }) => (
        <li
          key={node.id}
          className={cn('flex items-center gap-2 rounded px-2 py-1 text-xs hover:bg-surface-2', selected === node.id && 'bg-accent-soft')}
          style={{ paddingLeft: `${0.5 + depth * 1.25}rem` }}
          data-testid="session-node"
          data-session-id={node.id}
          data-status={node.status}
          data-main={node.isMain ? 'true' : 'false'}
          data-parent-id={node.parentId ?? ''}
        >
          <input
            type="checkbox"
            aria-label={`Compare ${node.title || node.id}`}
            checked={compare.includes(node.id)}
            onChange={() => onToggleCompare(node.id)}
            data-testid="session-compare-toggle"
          />
          <button
            type="button"
            className="flex min-w-0 flex-1 items-center gap-2 text-left"
            aria-current={selected === node.id ? 'true' : undefined}
            onClick={() => onSelect(node.id)}
            data-testid="session-select"
          >
            <GitBranch aria-hidden className="size-3.5 shrink-0 text-muted" />
            <span className="truncate font-medium">{node.title || (node.parentId ? 'branch' : 'main')}</span>
            {node.forkSeq !== null ? <span className="shrink-0 text-muted tabular-nums">from #{node.forkSeq}</span> : null}
            {node.isMain ? (
              <Badge tone="accent" data-testid="session-main">
                <Star aria-hidden className="size-3" /> main
              </Badge>
            ) : null}
          </button>
          <Badge tone={SESSION_TONE[node.status]} data-testid="session-status">
            {node.status}
          </Badge>
          <span className="w-16 shrink-0 text-right text-muted tabular-nums" title="events (own)">
            {node.eventCount} ({node.ownEventCount})
          </span>
          <span className="w-16 shrink-0 text-right text-muted tabular-nums" title="this branch's own spend">
            {formatCost(node.costMicros)}
          </span>
        </li>
      ))}
    </ol>
  );
}
