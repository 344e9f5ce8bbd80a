'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { usePageShortcuts, type PageShortcut } from '@/lib/shortcuts';
import { useUrlState } from '@/lib/use-url-state';
import { useTeamActivity } from '@/components/live/team-activity';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { ApprovalCard } from './approval-card';
import { LinkedApproval } from './linked-approval';
import type { ApprovalStatus } from './types';

const FILTERS: Record<string, { label: string; status?: ApprovalStatus }> = {
  all: { label: 'All (pending first)' },
  pending: { label: 'Pending', status: 'pending' },
  approved: { label: 'Approved', status: 'approved' },
  rejected: { label: 'Rejected', status: 'rejected' },
  expired: { label: 'Expired', status: 'expired' },
  cancelled: { label: 'Cancelled', status: 'cancelled' },
};

/**
 * The team's approvals inbox: pending calls first, then the history (filter by status). The team
 * activity stream says when the pending set changed (a run asked, someone decided, one expired),
 * and the list refetches then, so new requests appear without a reload. Approvers select several
 * pending items to decide them in one go. A link with `?approval=ID` shows that approval first.
 */
export function ApprovalsInbox() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const base = `/t/${team.slug}`;
  // The filter lives in the URL (?status=pending): a filtered inbox can be shared and reloaded.
  const url = useUrlState({ status: 'all' });
  const filter = FILTERS[url.get('status')] ? url.get('status') : 'all';
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkComment, setBulkComment] = useState('');
  // Read once on mount (not useSearchParams: no Suspense boundary needed around the page).
  const [linkedId, setLinkedId] = useState<string | null>(null);
  useEffect(() => setLinkedId(new URLSearchParams(window.location.search).get('approval')), []);
  const status = FILTERS[filter]?.status;
  const input = { teamId: team.id, limit: 50, ...(status ? { status } : {}) };
  const list = useInfiniteQuery(trpc.approvals.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.approvals.list.pathFilter());
    void queryClient.invalidateQueries(trpc.approvals.get.pathFilter());
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  useTeamActivity((activity) => {
    if (activity.kind === 'ready' || activity.kind === 'approvals.count') refresh();
  });

  const decideMany = useMutation(
    trpc.approvals.decideMany.mutationOptions({
      onSuccess: () => {
        setSelected(new Set());
        setBulkComment('');
      },
      onSettled: refresh,
    }),
  );
  // The linked approval is shown above the list, not twice.
  const listed = linkedId ? items.filter((item) => item.id !== linkedId) : items;
  const chosen = items.filter((i) => selected.has(i.id) && i.status === 'pending' && i.canDecide).map((i) => i.id);
  const bulk = (decision: 'approve' | 'reject') =>
    decideMany.mutate({ teamId: team.id, approvalIds: chosen, decision, ...(bulkComment.trim() ? { comment: bulkComment.trim() } : {}) });
  const failed = decideMany.data?.results.filter((r) => !r.ok) ?? [];
  usePageShortcuts('Approvals', approvalKeys());

  return (
    <div className="flex flex-col gap-4 px-8 py-5">
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Show" htmlFor="approvals-filter" className="w-48">
          <Select id="approvals-filter" value={filter} onChange={(e) => url.set({ status: e.target.value })} data-testid="approvals-filter">
            {Object.entries(FILTERS).map(([value, choice]) => (
              <option key={value} value={value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </Field>
        {chosen.length > 0 ? (
          <div className="flex flex-1 flex-wrap items-center gap-2 rounded-md border border-border bg-surface-2 px-3 py-1.5" data-testid="approvals-bulk">
            <span className="text-xs font-medium">{chosen.length} selected</span>
            <Input
              value={bulkComment}
              maxLength={2000}
              onChange={(e) => setBulkComment(e.target.value)}
              placeholder="Comment for all"
              aria-label="Comment for all"
              className="min-w-48 flex-1"
            />
            <Button size="sm" variant="primary" disabled={decideMany.isPending} onClick={() => bulk('approve')} data-testid="approvals-bulk-approve">
              Approve {chosen.length}
            </Button>
            <Button size="sm" variant="danger-ghost" disabled={decideMany.isPending} onClick={() => bulk('reject')} data-testid="approvals-bulk-reject">
              Reject {chosen.length}
            </Button>
          </div>
        ) : null}
      </div>
      {linkedId ? (
        <LinkedApproval
          approvalId={linkedId}
          teamId={team.id}
          base={base}
          selected={selected.has(linkedId)}
          onSelect={(on) => toggle(linkedId, on)}
          onDecided={refresh}
        />
      ) : null}
      <InlineError error={list.error ?? decideMany.error} testId="approvals-error" />
      {failed.length > 0 ? (
        <p className="text-xs text-danger" data-testid="approvals-bulk-failures">
          {failed.length} could not be decided: {failed.map((f) => f.error).join('; ')}
        </p>
      ) : null}
      <div className="overflow-hidden rounded-lg border border-border bg-surface shadow-xs">
        {list.isPending ? (
          <p className="px-4 py-6 text-sm text-muted">Loading…</p>
        ) : listed.length === 0 ? (
          <p className="px-4 py-6 text-sm text-muted" data-testid="approvals-empty">
            {status ? `No ${status} approvals.` : 'Nothing to approve. Calls the policy holds for a person appear here as they happen.'}
          </p>
        ) : (
          <ul data-testid="approvals-list">
            {listed.map((item) => (
              <ApprovalCard
                key={item.id}
                item={item}
                teamId={team.id}
                base={base}
                selected={selected.has(item.id)}
                onSelect={(on) => toggle(item.id, on)}
                onDecided={refresh}
              />
            ))}
          </ul>
        )}
      </div>
      {list.hasNextPage ? (
        <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} className="self-center">
          Load more
        </Button>
      ) : null}
    </div>
  );
}

const ITEM = '[data-testid="approval-item"]';

/** The approval the keyboard is on: the focused card (or the one holding focus). */
function focusedItem(): HTMLElement | null {
  return document.activeElement instanceof HTMLElement ? document.activeElement.closest<HTMLElement>(ITEM) : null;
}

/** Moves the keyboard to the next (1) or previous (-1) approval on the page. */
function move(step: 1 | -1): void {
  const items = [...document.querySelectorAll<HTMLElement>(ITEM)];
  if (items.length === 0) return;
  const at = items.indexOf(focusedItem() ?? items[step === 1 ? items.length - 1 : 0]!);
  const next = items[(at + step + items.length) % items.length]!;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

/** Presses a control of the focused approval (approve, reject, select, open its run). */
function press(testId: string): void {
  const control = focusedItem()?.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (control && !(control instanceof HTMLButtonElement && control.disabled)) control.click();
}

function approvalKeys(): PageShortcut[] {
  return [
    { key: 'j', label: 'Next approval', run: () => move(1) },
    { key: 'k', label: 'Previous approval', run: () => move(-1) },
    { key: 'a', label: 'Approve the focused approval', run: () => press('approval-approve') },
    { key: 'r', label: 'Reject the focused approval', run: () => press('approval-reject') },
    { key: 'x', label: 'Select it for a bulk decision', run: () => press('approval-select') },
    { key: 'o', label: 'Open its run', run: () => press('approval-run-link') },
  ];
}
