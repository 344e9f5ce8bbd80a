'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { ApprovalCard } from './approval-card';

/**
 * The approval a link names (`?approval=ID`, e.g. from an `approval.requested` webhook's `url`),
 * shown above the inbox whatever page of the list it falls on, and scrolled into view, so the
 * person a chat or mail message sent here lands on the decision itself.
 */
export function LinkedApproval(props: {
  approvalId: string;
  teamId: string;
  base: string;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onDecided: () => void;
}) {
  const trpc = useTRPC();
  const linked = useQuery(trpc.approvals.get.queryOptions({ teamId: props.teamId, approvalId: props.approvalId }, { retry: false }));
  const section = useRef<HTMLElement>(null);
  const loaded = linked.data !== undefined;
  useEffect(() => {
    if (loaded) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  return (
    <section ref={section} aria-labelledby="linked-approval" data-testid="approval-linked" data-approval-id={props.approvalId} className="flex flex-col gap-2">
      <h2 id="linked-approval" className="text-sm font-semibold">
        The approval you were sent to
      </h2>
      {linked.error ? <InlineError error={linked.error} testId="approval-linked-error" /> : null}
      {linked.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
      {linked.data ? (
        <ul className="overflow-hidden rounded-lg border-2 border-accent bg-surface shadow-xs">
          <ApprovalCard
            item={linked.data}
            teamId={props.teamId}
            base={props.base}
            selected={props.selected}
            onSelect={props.onSelect}
            onDecided={props.onDecided}
          />
        </ul>
      ) : null}
    </section>
  );
}
