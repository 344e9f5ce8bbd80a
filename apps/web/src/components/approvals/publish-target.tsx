'use client';

import { useQuery } from '@tanstack/react-query';
import { GitBranch } from 'lucide-react';
import { LazyUnifiedDiff as UnifiedDiff } from '@/components/files/lazy';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import type { ApprovalItem } from './types';

/**
 * A `publish_branch` call waiting for an approver: where it would push (the repository the run
 * started from and the branch, the approver's edited one once decided) and exactly what (the
 * session's files when it asked, against the files the run was seeded with), from the store.
 * Editing the arguments (the branch name) goes through the card's usual edit, decided again.
 */
export function PublishTarget({ item, teamId }: { item: ApprovalItem; teamId: string }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.approvals.diff.queryOptions({ teamId, approvalId: item.id }));
  const target = diff.data?.target;
  return (
    <div className="flex flex-col gap-2" data-testid="approval-publish">
      {target ? (
        <p className="flex flex-wrap items-center gap-x-1.5 text-[13px]" data-testid="approval-publish-target">
          <GitBranch aria-hidden className="size-3.5 text-muted" />
          <span className="text-muted">Pushes</span>
          <span className="font-mono font-medium" data-testid="approval-publish-branch">
            {target.branch ?? '(no branch named)'}
          </span>
          <span className="text-muted">to</span>
          <span className="font-mono break-all" data-testid="approval-publish-remote">
            {target.url ?? '(no repository)'}
          </span>
        </p>
      ) : null}
      <InlineError error={diff.error} testId="approval-publish-diff-error" />
      {diff.data?.reason ? (
        <p className="text-xs text-muted" data-testid="approval-publish-reason">
          {diff.data.reason}
        </p>
      ) : null}
      {diff.data?.diff === '' ? <p className="text-xs text-muted">No change since the run started: there is nothing to push.</p> : null}
      {diff.data?.diff ? (
        <div className="max-h-96 overflow-auto">
          <UnifiedDiff diff={diff.data.diff} testId="approval-publish-diff" />
          {diff.data.truncated ? <p className="text-xs text-muted">[diff cut: too large to show]</p> : null}
        </div>
      ) : null}
    </div>
  );
}
