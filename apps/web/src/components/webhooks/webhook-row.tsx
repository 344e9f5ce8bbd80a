'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime, formatRelative } from '@/lib/format';
import { DELIVERY_TONE, webhookState } from '@/lib/webhook-status';
import { useTRPC } from '@/trpc/client';
import type { ShownSecret } from './webhook-secret';

type WebhookRow = RouterOutputs['webhooks']['list'][number];

/** One endpoint: where, which events, its state and last delivery; the log, test, edit, enable/disable, rotate, delete. */
export function WebhookListRow(props: { teamId: string; base: string; webhook: WebhookRow; onEdit: () => void; onSecret: (shown: ShownSecret) => void }) {
  const { teamId, webhook } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSettled: refresh }));
  const toggle = useMutation(trpc.webhooks.update.mutationOptions({ onSettled: refresh }));
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (rotated) => props.onSecret({ webhookId: webhook.id, url: rotated.webhook.url, secret: rotated.secret, kind: 'rotated' }),
      onSettled: () => {
        setConfirming(null);
        return refresh();
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSettled: refresh }));
  const state = webhookState(webhook);
  const last = webhook.lastDelivery;
  const now = Date.now();
  const error = test.error ?? toggle.error ?? rotate.error ?? remove.error;

  return (
    <Tr data-testid="webhook-row" data-webhook-id={webhook.id} data-url={webhook.url} data-state={state.kind}>
      <Td className="max-w-80 py-2">
        <div className="font-mono text-xs font-medium break-all" data-testid="webhook-row-url">
          {webhook.url}
        </div>
        {webhook.description ? (
          <div className="mt-0.5 text-xs text-muted" data-testid="webhook-row-description">
            {webhook.description}
          </div>
        ) : null}
      </Td>
      <Td className="py-2">
        <div className="flex max-w-64 flex-wrap gap-1" data-testid="webhook-row-events">
          {webhook.events.map((type) => (
            <Badge key={type} className="font-mono">
              {type}
            </Badge>
          ))}
        </div>
      </Td>
      <Td className="max-w-64 py-2 text-xs">
        <Badge tone={state.tone} data-testid="webhook-row-state">
          {state.label}
        </Badge>
        {state.reason ? (
          <div className="mt-1 text-muted" data-testid="webhook-row-reason">
            {state.reason}
            {webhook.disabledAt ? <span title={formatDateTime(webhook.disabledAt)}> · {formatRelative(webhook.disabledAt, now)}</span> : null}
          </div>
        ) : null}
        {webhook.failingSince ? (
          <div className="mt-1 text-warning" data-testid="webhook-row-failing-since" title={formatDateTime(webhook.failingSince)}>
            failing since {formatDateTime(webhook.failingSince)}
          </div>
        ) : null}
      </Td>
      <Td className="py-2 text-xs whitespace-nowrap">
        {last ? (
          <span className="flex flex-col gap-0.5" data-testid="webhook-row-last">
            <span className="flex items-center gap-1.5">
              <Badge tone={DELIVERY_TONE[last.status]}>{last.status}</Badge>
              <span className="font-mono text-muted">{last.eventType}</span>
            </span>
            <span className="text-muted" title={formatDateTime(last.createdAt)}>
              {last.lastStatusCode !== null ? `HTTP ${last.lastStatusCode} · ` : ''}
              {formatRelative(last.createdAt, now)}
            </span>
          </span>
        ) : (
          <span className="text-muted">none yet</span>
        )}
      </Td>
      <Td className="py-2 text-right">
        <div className="flex flex-wrap justify-end gap-1">
          <Link
            href={`${props.base}/settings/webhooks/${webhook.id}`}
            className="inline-flex h-7 items-center rounded-md px-2.5 text-xs font-medium text-accent hover:bg-accent-soft"
            data-testid="webhook-log"
          >
            Delivery log
          </Link>
          <Button
            size="sm"
            disabled={!webhook.enabled || test.isPending}
            title={webhook.enabled ? 'Send a webhook.test event now' : 'Enable the endpoint to send it anything'}
            onClick={() => test.mutate({ teamId, webhookId: webhook.id })}
            data-testid="webhook-test"
          >
            Send test
          </Button>
          <Button size="sm" variant="ghost" onClick={props.onEdit} data-testid="webhook-edit">
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ teamId, webhookId: webhook.id, enabled: !webhook.enabled })}
            data-testid="webhook-toggle"
          >
            {webhook.enabled ? 'Disable' : 'Enable'}
          </Button>
          {confirming === 'rotate' ? (
            <Button
              size="sm"
              variant="danger"
              disabled={rotate.isPending}
              onClick={() => rotate.mutate({ teamId, webhookId: webhook.id })}
              data-testid="webhook-rotate-confirm"
            >
              Rotate now
            </Button>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => setConfirming('rotate')} data-testid="webhook-rotate">
              Rotate secret
            </Button>
          )}
          {confirming === 'delete' ? (
            <Button
              size="sm"
              variant="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ teamId, webhookId: webhook.id }, { onSettled: () => setConfirming(null) })}
              data-testid="webhook-delete-confirm"
            >
              Delete it
            </Button>
          ) : (
            <Button size="sm" variant="danger-ghost" onClick={() => setConfirming('delete')} data-testid="webhook-delete">
              Delete
            </Button>
          )}
          {confirming ? (
            <Button size="sm" variant="ghost" onClick={() => setConfirming(null)} data-testid="webhook-confirm-cancel">
              Cancel
            </Button>
          ) : null}
        </div>
        {test.data && !test.error ? (
          <p className="mt-1 text-xs text-success" data-testid="webhook-test-result" data-delivery-id={test.data.deliveryId}>
            Test event queued ({test.data.deliveryId})
          </p>
        ) : null}
        <InlineError error={error} testId="webhook-row-error" className="mt-1 text-left text-xs" />
      </Td>
    </Tr>
  );
}
