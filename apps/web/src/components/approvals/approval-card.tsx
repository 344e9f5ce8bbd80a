'use client';

import { useMutation } from '@tanstack/react-query';
import { Check, Pencil, X } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { ArgsEditor, parseArgs } from './args-editor';
import { BreakerNotice } from './breaker-notice';
import { CallPreview } from './call-preview';
import { HeldEffect } from './held-effect';
import { PublishTarget } from './publish-target';
import type { ApprovalItem, ApprovalStatus } from './types';

const RISK_TONE: Record<string, BadgeTone> = { low: 'neutral', medium: 'warning', high: 'danger', critical: 'danger' };
const STATUS_TONE: Record<ApprovalStatus, BadgeTone> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
  expired: 'neutral',
  cancelled: 'neutral',
};

/** The decision controls of a pending approval: comment, optional edited arguments, approve / reject. */
function DecideForm({ item, teamId, onDecided }: { item: ApprovalItem; teamId: string; onDecided: () => void }) {
  const trpc = useTRPC();
  const [comment, setComment] = useState('');
  const [editing, setEditing] = useState(false);
  const [source, setSource] = useState(() => JSON.stringify(item.args, null, 2));
  const decide = useMutation(trpc.approvals.decide.mutationOptions({ onSuccess: onDecided }));
  const edited = editing ? parseArgs(source) : null;

  function send(decision: 'approve' | 'reject') {
    if (decision === 'approve' && edited && !edited.ok) return;
    decide.mutate({
      teamId,
      approvalId: item.id,
      decision,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
      ...(decision === 'approve' && edited?.ok ? { editedArgs: edited.args } : {}),
    });
  }

  if (!item.canDecide) {
    return (
      <p className="text-xs text-muted" data-testid="approval-blocked">
        You cannot decide this one: {item.blocker}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {editing ? <ArgsEditor id={`args-${item.id}`} value={source} onChange={setSource} /> : null}
      <div className="flex flex-wrap items-center gap-2">
        <Input
          value={comment}
          maxLength={2000}
          onChange={(e) => setComment(e.target.value)}
          placeholder="Comment (a rejection's reason is what the agent is told)"
          aria-label="Comment"
          className="min-w-60 flex-1"
          data-testid="approval-comment"
        />
        {item.held || item.kind === 'breaker' ? null : (
          <Button size="sm" variant="ghost" onClick={() => setEditing((v) => !v)} data-testid="approval-edit">
            <Pencil aria-hidden className="size-3" /> {editing ? 'Keep the original arguments' : 'Edit arguments'}
          </Button>
        )}
        <Button
          size="sm"
          variant="primary"
          disabled={decide.isPending || (edited !== null && !edited.ok)}
          onClick={() => send('approve')}
          data-testid="approval-approve"
        >
          <Check aria-hidden className="size-3.5" /> {edited?.ok ? 'Approve edited' : 'Approve'}
        </Button>
        <Button size="sm" variant="danger-ghost" disabled={decide.isPending} onClick={() => send('reject')} data-testid="approval-reject">
          <X aria-hidden className="size-3.5" /> Reject
        </Button>
      </div>
      <InlineError error={decide.error} testId="approval-decide-error" />
    </div>
  );
}

/**
 * One approval: the exact call (command line or diff), who asked (agent, run, creator), the risk
 * and the policy rule that held it, the deadlines, and for a pending one the decision controls.
 */
export function ApprovalCard(props: {
  item: ApprovalItem;
  teamId: string;
  base: string;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onDecided: () => void;
}) {
  const { item } = props;
  const pending = item.status === 'pending';
  return (
    <li
      data-testid="approval-item"
      data-approval-id={item.id}
      data-status={item.status}
      // Reachable by the j/k keys (and Tab stays on the controls): tabIndex -1.
      tabIndex={-1}
      aria-label={`Approval: ${item.tool ?? item.kind}, ${item.status}`}
      className="flex gap-3 border-b border-border px-4 py-3 last:border-b-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring/50 focus:bg-surface-2/40"
    >
      <div className="pt-0.5">
        {pending && item.canDecide ? (
          <input
            type="checkbox"
            aria-label="Select for a bulk decision"
            checked={props.selected}
            onChange={(e) => props.onSelect(e.target.checked)}
            data-testid="approval-select"
          />
        ) : (
          <span className="inline-block size-3.5" />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2 text-[13px]">
          <span className="font-mono font-medium" data-testid="approval-tool">
            {item.tool ?? item.kind}
          </span>
          <Badge tone={STATUS_TONE[item.status]} data-testid="approval-status">
            {item.status}
          </Badge>
          <Badge tone={RISK_TONE[item.risk] ?? 'neutral'} data-testid="approval-risk">
            risk: {item.risk}
          </Badge>
          {item.policyRuleId ? <Badge data-testid="approval-rule">rule: {item.policyRuleId}</Badge> : null}
          <Badge>needs {item.requiredRole}</Badge>
          {item.fourEyes ? <Badge tone="accent">four-eyes</Badge> : null}
          <span className="ml-auto text-xs text-muted" title={formatDateTime(item.createdAt)}>
            {formatRelative(item.createdAt)}
          </span>
        </div>
        {item.reason ? (
          <p className="text-xs text-muted" data-testid="approval-reason">
            {item.reason}
          </p>
        ) : null}
        {item.breaker ? <BreakerNotice breaker={item.breaker} /> : null}
        <CallPreview tool={item.tool} args={item.args} />
        {item.held ? <HeldEffect item={{ ...item, held: item.held }} teamId={props.teamId} /> : null}
        {item.kind === 'tool' && item.tool === 'publish_branch' ? <PublishTarget item={item} teamId={props.teamId} /> : null}
        {item.editedArgs ? (
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted">Run with the approver&apos;s arguments:</span>
            <CallPreview tool={item.tool} args={item.editedArgs} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <span>
            agent: <span className="text-foreground">{item.agent?.name ?? '—'}</span>
          </span>
          <Link href={`${props.base}/runs/${item.run.id}`} className="text-accent hover:underline" data-testid="approval-run-link">
            run: {item.run.goal.length > 60 ? `${item.run.goal.slice(0, 59)}…` : item.run.goal}
          </Link>
          {item.requestedBy ? <span>started by {item.requestedBy.email}</span> : null}
          {item.graphEdgeId ? <span>edge {item.graphEdgeId}</span> : null}
          {pending && item.expiresAt ? (
            <span>
              expires {formatDateTime(item.expiresAt)} ({item.expiryOutcome} then)
            </span>
          ) : null}
          {pending && item.escalateAt && item.escalateToRole ? (
            <span>
              escalates to {item.escalateToRole} at {formatDateTime(item.escalateAt)}
            </span>
          ) : null}
          {!pending && item.decidedAt ? (
            <span data-testid="approval-decided">
              {item.status} {item.decidedBy ? `by ${item.decidedBy.email}` : ''} {formatRelative(item.decidedAt)}
              {item.comment ? `: “${item.comment}”` : ''}
            </span>
          ) : null}
        </div>
        {pending ? <DecideForm item={item} teamId={props.teamId} onDecided={props.onDecided} /> : null}
      </div>
    </li>
  );
}
