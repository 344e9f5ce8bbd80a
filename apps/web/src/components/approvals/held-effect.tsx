'use client';

import { useQuery } from '@tanstack/react-query';
import { LazyUnifiedDiff as UnifiedDiff } from '@/components/files/lazy';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import type { ApprovalItem } from './types';

type Held = NonNullable<ApprovalItem['held']>;

const KIND_TONE: Record<string, string> = {
  deleted: 'text-danger',
  truncated: 'text-danger',
  modified: 'text-foreground',
  moved: 'text-foreground',
  added: 'text-success',
};

/** Counts as one line: "deleted 2 · truncated 1 · modified 3". */
function countsLine(held: Held): string {
  const { counts } = held.effect;
  return (['deleted', 'truncated', 'modified', 'moved', 'added'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${kind} ${counts[kind]}`)
    .join(' · ');
}

/**
 * A held result (approval kind effect): the call already ran, and what it changed waits, rolled
 * back, for this decision. Approving keeps exactly these changes; rejecting keeps them undone.
 */
export function HeldEffect({ item, teamId }: { item: ApprovalItem & { held: Held }; teamId: string }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.approvals.diff.queryOptions({ teamId, approvalId: item.id }));
  const { held } = item;
  return (
    <div className="flex flex-col gap-2" data-testid="approval-effect">
      <p className="text-xs text-muted">
        This call already ran. Its changes were rolled back and wait for this decision: approving keeps exactly them, rejecting keeps them undone.
      </p>
      <p className="text-xs" data-testid="approval-effect-counts">
        {countsLine(held)}
      </p>
      <ul className="flex flex-col font-mono text-xs" data-testid="approval-effect-files">
        {held.effect.changes.slice(0, 50).map((change) => (
          <li key={`${change.kind}:${change.path}`} className={KIND_TONE[change.kind] ?? ''}>
            {change.kind} {change.from ? `${change.from} → ` : ''}
            {change.path}
          </li>
        ))}
        {held.effect.changes.length > 50 || held.effect.truncatedList ? <li className="text-muted">… and more (see the diff)</li> : null}
      </ul>
      <InlineError error={diff.error} testId="approval-effect-diff-error" />
      {diff.data?.reason ? <p className="text-xs text-muted">{diff.data.reason}</p> : null}
      {diff.data?.diff ? (
        <div className="max-h-96 overflow-auto">
          <UnifiedDiff diff={diff.data.diff} testId="approval-effect-diff" />
          {diff.data.truncated ? <p className="text-xs text-muted">[diff cut: too large to show]</p> : null}
        </div>
      ) : null}
    </div>
  );
}
