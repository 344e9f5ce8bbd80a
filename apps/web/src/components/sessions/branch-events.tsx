'use client';

import { useQuery } from '@tanstack/react-query';
import { FolderOpen, GitFork } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { cn } from '@/lib/cn';
import { useTRPC } from '@/trpc/client';
import { eventLine } from './session-format';

/**
 * One branch's log, through its ancestry, numbered as `sessions.fork` takes it (#seq). Every
 * event has "Fork from here"; where the branch cannot be forked (a model or tool call in flight,
 * a pending approval) the button is disabled and says why; "Files" opens the workspace as it was
 * at that event. Refreshed while the branch is live.
 */
export function BranchEvents({ teamId, sessionId, live, canOperate, onFork, onShowFiles }: {
  teamId: string;
  sessionId: string;
  live: boolean;
  canOperate: boolean;
  onFork: (atEvent: number) => void;
  /** Opens the branch's workspace as it was at this event. */
  onShowFiles?: (atEvent: number) => void;
}) {
  const trpc = useTRPC();
  const events = useQuery({ ...trpc.sessions.events.queryOptions({ teamId, sessionId }), refetchInterval: live ? 1500 : false });
  const data = events.data;
  return (
    <div className="flex flex-col" data-testid="branch-events" data-session-id={sessionId} data-count={data?.events.length ?? 0}>
      <InlineError error={events.error} testId="branch-events-error" />
      <ol className="divide-y divide-border">
        {data?.events.map((event) => (
          <li
            key={event.seq}
            className={cn('flex items-start gap-3 px-3 py-1.5 text-xs', event.inherited && 'text-muted')}
            data-testid="branch-event"
            data-seq={event.seq}
            data-type={event.type}
          >
            <span className="w-10 shrink-0 text-right font-mono tabular-nums">#{event.seq}</span>
            <span className="min-w-0 flex-1 break-words">{eventLine(event)}</span>
            {onShowFiles ? (
              <Button
                size="sm"
                variant="ghost"
                title={`The workspace files as they were at event #${event.seq}`}
                aria-label={`Files at event #${event.seq}`}
                onClick={() => onShowFiles(event.seq)}
                data-testid="files-at-event"
              >
                <FolderOpen aria-hidden className="size-3" /> Files
              </Button>
            ) : null}
            {canOperate ? (
              <Button
                size="sm"
                variant="ghost"
                disabled={event.forkBlocker !== null}
                title={event.forkBlocker ?? `Fork a new branch from event #${event.seq}`}
                onClick={() => onFork(event.seq)}
                data-testid="fork-from-here"
              >
                <GitFork aria-hidden className="size-3" /> Fork from here
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
