'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { splitDiff } from './diff-files';
import { LazyUnifiedDiff as UnifiedDiff } from './lazy';

/**
 * What one tool call changed (`sessions.callDiff`: from the commit before its `tool.finished`
 * at `atEvent` to the commit it recorded), one block per file, rendered by @git-diff-view/react
 * with the file's syntax ({@link UnifiedDiff}). Without readable workspaces the server's reason is shown instead.
 */
export function CallDiff({ teamId, sessionId, atEvent }: { teamId: string; sessionId: string; atEvent: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.sessions.callDiff.queryOptions({ teamId, sessionId, atEvent }));
  const parts = useMemo(() => splitDiff(query.data?.diff ?? ''), [query.data?.diff]);
  const data = query.data;
  return (
    <div className="flex flex-col gap-2" data-testid="call-diff" data-at-event={atEvent} data-files={data ? parts.length : ''} aria-busy={query.isFetching}>
      <InlineError error={query.error} testId="call-diff-error" />
      {query.isPending ? <p className="text-xs text-muted">Loading the diff…</p> : null}
      {data?.reason ? (
        <p className="text-xs text-muted" data-testid="call-diff-reason">
          No diff: {data.reason}.
        </p>
      ) : null}
      {data && data.diff !== null && parts.length === 0 ? (
        <p className="text-xs text-muted" data-testid="call-diff-empty">
          This call left every file as it was.
        </p>
      ) : null}
      {data?.truncated ? <p className="text-xs text-warning">The diff is cut: it is larger than the server sends.</p> : null}
      {data?.diff ? <UnifiedDiff diff={data.diff} /> : null}
    </div>
  );
}
