'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, RotateCw } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { attemptOutcome, DELIVERY_TONE } from '@/lib/webhook-status';
import { useTRPC } from '@/trpc/client';

type Delivery = RouterOutputs['webhooks']['deliveries']['items'][number];

export const DELIVERY_COLUMNS = 8;

/** "in 4 s", "in 3 min", or the time itself when it is further off than an hour or already due. */
function untilText(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (seconds <= 0) return 'due now';
  if (seconds < 90) return `in ${seconds} s`;
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  return formatDateTime(date);
}

/**
 * One delivery of the log, expandable to its attempts (time, status or error, latency, the first
 * KiB of the answer) and the body every attempt sends. Redeliver sends it again with the same
 * `webhook-id` (a receiver that has it already can tell) from the start of the retry schedule.
 */
export function DeliveryRow(props: { teamId: string; delivery: Delivery; endpointEnabled: boolean; now: number }) {
  const { delivery, now } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSettled: () => queryClient.invalidateQueries(trpc.webhooks.pathFilter()),
    }),
  );
  const refusal = !props.endpointEnabled ? 'Enable the endpoint to send it anything' : delivery.inFlight ? 'An attempt is in flight' : null;

  return (
    <Fragment>
      <Tr
        data-testid="delivery-row"
        data-delivery-id={delivery.id}
        data-status={delivery.status}
        data-attempts={delivery.attempts}
        data-event-type={delivery.eventType}
      >
        <Td className="w-8 pr-0">
          <Button
            size="icon"
            variant="ghost"
            aria-expanded={open}
            aria-label={open ? 'Hide attempts' : 'Show attempts'}
            onClick={() => setOpen(!open)}
            data-testid="delivery-expand"
          >
            {open ? <ChevronDown className="size-3.5" aria-hidden /> : <ChevronRight className="size-3.5" aria-hidden />}
          </Button>
        </Td>
        <Td className="font-mono text-xs">{delivery.eventType}</Td>
        <Td className="font-mono text-[11px] text-muted" data-testid="delivery-webhook-id">
          {delivery.id}
        </Td>
        <Td className="text-xs whitespace-nowrap">
          <Badge tone={DELIVERY_TONE[delivery.status]} data-testid="delivery-status">
            {delivery.status}
          </Badge>
          {delivery.inFlight ? <span className="ml-1.5 text-muted">sending…</span> : null}
          {delivery.status !== 'delivered' && (delivery.lastStatusCode !== null || delivery.lastError) ? (
            <div className="mt-0.5 max-w-56 truncate text-muted" title={attemptOutcome({ statusCode: delivery.lastStatusCode, error: delivery.lastError })}>
              last: {attemptOutcome({ statusCode: delivery.lastStatusCode, error: delivery.lastError })}
            </div>
          ) : null}
        </Td>
        <Td className="text-xs whitespace-nowrap text-muted">{formatDateTime(delivery.createdAt)}</Td>
        <Td className="text-xs tabular-nums" data-testid="delivery-attempt-count">
          {delivery.attempts}
        </Td>
        <Td
          className="text-xs whitespace-nowrap text-muted"
          data-testid="delivery-next-attempt"
          title={delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : undefined}
        >
          {delivery.nextAttemptAt ? untilText(delivery.nextAttemptAt, now) : '—'}
        </Td>
        <Td className="text-right whitespace-nowrap">
          <Button
            size="sm"
            disabled={refusal !== null || redeliver.isPending}
            title={refusal ?? 'Send it again, with the same webhook-id'}
            onClick={() => redeliver.mutate({ teamId: props.teamId, deliveryId: delivery.id })}
            data-testid="delivery-redeliver"
          >
            <RotateCw className="size-3.5" aria-hidden />
            Redeliver
          </Button>
          {redeliver.isSuccess ? (
            <div className="mt-0.5 text-xs text-success" data-testid="delivery-redeliver-result">
              queued again
            </div>
          ) : null}
          <InlineError error={redeliver.error} testId="delivery-redeliver-error" className="mt-1 text-left text-xs whitespace-normal" />
        </Td>
      </Tr>
      {open ? (
        <tr className="border-b border-border bg-surface-2/30" data-testid="delivery-detail" data-delivery-id={delivery.id}>
          <td colSpan={DELIVERY_COLUMNS} className="px-4 py-3">
            <AttemptList attempts={delivery.attemptLog} />
            <details className="mt-3 text-xs">
              <summary className="cursor-pointer text-muted">Body (the same on every attempt)</summary>
              <pre
                className="mt-1 max-h-60 overflow-auto rounded-md border border-border bg-surface p-2 font-mono text-[11px] whitespace-pre-wrap break-all"
                data-testid="delivery-body"
              >
                {delivery.body}
              </pre>
            </details>
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

function AttemptList({ attempts }: { attempts: Delivery['attemptLog'] }) {
  if (attempts.length === 0)
    return (
      <p className="text-xs text-muted" data-testid="delivery-attempts">
        No attempt yet.
      </p>
    );
  return (
    <ol className="flex flex-col gap-2" data-testid="delivery-attempts">
      {attempts.map((attempt) => {
        const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
        return (
          <li
            key={attempt.number}
            className="rounded-md border border-border bg-surface px-3 py-2 text-xs"
            data-testid="delivery-attempt"
            data-number={attempt.number}
            data-status-code={attempt.statusCode ?? ''}
          >
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-medium">#{attempt.number}</span>
              <span className="text-muted">{formatDateTime(attempt.at)}</span>
              <span className={ok ? 'text-success' : 'text-danger'} data-testid="delivery-attempt-outcome">
                {attemptOutcome(attempt)}
              </span>
              {attempt.latencyMs !== null ? <span className="text-muted tabular-nums">{attempt.latencyMs} ms</span> : null}
            </div>
            {attempt.responseExcerpt ? (
              <pre
                className="mt-1.5 max-h-32 overflow-auto font-mono text-[11px] whitespace-pre-wrap break-all text-muted"
                data-testid="delivery-attempt-excerpt"
              >
                {attempt.responseExcerpt}
              </pre>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
