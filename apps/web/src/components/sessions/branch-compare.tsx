'use client';

import { useQuery } from '@tanstack/react-query';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { describeEvent, type BranchDiff } from './session-format';

function Side({ side, label }: { side: BranchDiff['a']; label: string }) {
  return (
    <section className="min-w-0 flex-1" data-testid={`compare-side-${label}`} data-session-id={side.sessionId}>
      <h3 className="px-3 py-1 text-xs font-semibold">
        {label.toUpperCase()}: {side.title || side.sessionId} · {side.status}
      </h3>
      <ol className="divide-y divide-border">
        {side.events.map((event) => (
          <li key={`${event.sessionId}-${event.seq}`} className="flex gap-2 px-3 py-1 text-xs" data-testid="compare-event" data-seq={event.seq}>
            <span className="w-10 shrink-0 text-right font-mono tabular-nums">#{event.seq}</span>
            <span className="min-w-0 flex-1 break-words">{describeEvent(event.type, event.payload)}</span>
          </li>
        ))}
      </ol>
      {side.moreEvents > 0 ? <p className="px-3 py-1 text-xs text-muted">… {side.moreEvents} more</p> : null}
    </section>
  );
}

/** Two branches side by side after the event they diverge at, and the file diff between their workspaces. */
export function BranchCompare({ teamId, a, b }: { teamId: string; a: string; b: string }) {
  const trpc = useTRPC();
  const diff = useQuery(trpc.sessions.diff.queryOptions({ teamId, a, b }));
  const data = diff.data;
  return (
    <div className="flex flex-col gap-2" data-testid="branch-compare">
      <InlineError error={diff.error} testId="branch-compare-error" />
      {data ? (
        <>
          <p className="px-3 text-xs" data-testid="compare-divergence" data-diverged-after={data.divergedAfter}>
            The branches share events #1–#{data.divergedAfter} and diverge after #{data.divergedAfter}.
          </p>
          <div className="flex gap-2">
            <Side side={data.a} label="a" />
            <Side side={data.b} label="b" />
          </div>
          <section className="px-3" data-testid="compare-files">
            <h3 className="text-xs font-semibold">Files</h3>
            {data.files === null ? (
              <p className="text-xs text-muted">{data.filesReason}</p>
            ) : data.files === '' ? (
              <p className="text-xs text-muted">{data.filesReason ?? 'No differences in the workspace files.'}</p>
            ) : (
              <pre className="max-h-96 overflow-auto rounded bg-surface-2 p-2 font-mono text-xs">{data.files}</pre>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
