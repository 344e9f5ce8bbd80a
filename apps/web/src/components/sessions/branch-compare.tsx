'use client';

import { useQuery } from '@tanstack/react-query';
import { LazyUnifiedDiff as UnifiedDiff } from '@/components/files/lazy';
import { InlineError } from '@/components/ui/inline-error';
import { cn } from '@/lib/cn';
import { useTRPC } from '@/trpc/client';
import { ReplayReport, divergenceSeqs } from './replay-report';
import { eventLine, isFinished, type BranchDiff } from './session-format';

const dollars = (micros: number) => `$${(micros / 1_000_000).toFixed(4)}`;

function Side({ side, label, highlight }: { side: BranchDiff['a']; label: string; highlight: ReadonlySet<number> }) {
  const { spend } = side;
  return (
    <section className="min-w-0 flex-1" data-testid={`compare-side-${label}`} data-session-id={side.sessionId}>
      <h3 className="px-3 py-1 text-xs font-semibold">
        {label.toUpperCase()}: {side.title || side.sessionId} · {side.status}
      </h3>
      <p
        className="px-3 pb-1 text-xs text-muted tabular-nums"
        data-testid={`compare-spend-${label}`}
        data-tokens={spend.inputTokens + spend.outputTokens}
        data-cost-micros={spend.costMicros}
      >
        {spend.modelCalls} model call(s) · {spend.inputTokens.toLocaleString()} in / {spend.outputTokens.toLocaleString()} out tokens ·{' '}
        {dollars(spend.costMicros)}
      </p>
      <ol className="divide-y divide-border">
        {side.events.map((event) => {
          const diverged = highlight.has(event.seq);
          return (
            <li
              key={`${event.sessionId}-${event.seq}`}
              className={cn('flex gap-2 px-3 py-1 text-xs', diverged && 'bg-warning-soft font-medium')}
              data-testid="compare-event"
              data-seq={event.seq}
              data-type={event.type}
              data-diverged={diverged ? 'true' : undefined}
            >
              <span className="w-10 shrink-0 text-right font-mono tabular-nums">#{event.seq}</span>
              <span className="min-w-0 flex-1 break-words">{eventLine(event)}</span>
            </li>
          );
        })}
      </ol>
      {side.moreEvents > 0 ? <p className="px-3 py-1 text-xs text-muted">… {side.moreEvents} more</p> : null}
    </section>
  );
}

/**
 * Two branches side by side after the event they diverge at, with what each spent there, and
 * the file diff between their workspaces. A replay branch (either side) adds its report: the
 * turns it served from the log and the first divergence, highlighted on both sides.
 */
export function BranchCompare({ teamId, a, b }: { teamId: string; a: string; b: string }) {
  const trpc = useTRPC();
  const diff = useQuery({
    ...trpc.sessions.diff.queryOptions({ teamId, a, b }),
    refetchInterval: (query) => (query.state.data && (!isFinished(query.state.data.a.status) || !isFinished(query.state.data.b.status)) ? 1500 : false),
  });
  const data = diff.data;
  const seqs = data ? divergenceSeqs(data) : null;
  return (
    <div className="flex flex-col gap-2" data-testid="branch-compare">
      <InlineError error={diff.error} testId="branch-compare-error" />
      {data && seqs ? (
        <>
          <p className="px-3 text-xs" data-testid="compare-divergence" data-diverged-after={data.divergedAfter}>
            The branches share events #1–#{data.divergedAfter} and diverge after #{data.divergedAfter}.
          </p>
          {data.a.replay ? <ReplayReport report={data.a.replay} label="a" /> : null}
          {data.b.replay ? <ReplayReport report={data.b.replay} label="b" /> : null}
          <div className="flex gap-2">
            <Side side={data.a} label="a" highlight={seqs.a} />
            <Side side={data.b} label="b" highlight={seqs.b} />
          </div>
          <section className="px-3" data-testid="compare-files">
            <h3 className="text-xs font-semibold">Files</h3>
            {data.files === null ? (
              <p className="text-xs text-muted">{data.filesReason}</p>
            ) : data.files === '' ? (
              <p className="text-xs text-muted">{data.filesReason ?? 'No differences in the workspace files.'}</p>
            ) : (
              <div className="max-h-96 overflow-auto">
                <UnifiedDiff diff={data.files} testId="compare-files-diff" />
              </div>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
