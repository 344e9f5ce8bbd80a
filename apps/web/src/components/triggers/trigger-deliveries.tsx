'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

const PAGE = 20;
const COLUMNS = 6;
/** Deliveries arrive from outside without the page asking: the log polls. */
const POLL_MS = 3000;

function statusTone(status: number, accepted: boolean): BadgeTone {
  if (accepted) return 'success';
  return status === 429 || status >= 500 ? 'warning' : 'danger';
}

/** A trigger's deliveries, accepted and refused, newest first, a page at a time: when, the HTTP status answered, why, and the run. */
export function TriggerDeliveries({ teamId, triggerId, base }: { teamId: string; triggerId: string; base: string }) {
  const trpc = useTRPC();
  const deliveries = useInfiniteQuery(
    trpc.triggers.deliveries.infiniteQueryOptions(
      { teamId, triggerId, limit: PAGE },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, refetchInterval: POLL_MS },
    ),
  );
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <InlineError error={deliveries.error} testId="trigger-deliveries-error" className="m-4" />
      <Table>
        <thead>
          <tr>
            <Th>Time</Th>
            <Th>Status</Th>
            <Th>Reason</Th>
            <Th>webhook-id</Th>
            <Th>Size</Th>
            <Th>Run</Th>
          </tr>
        </thead>
        <tbody data-testid="trigger-deliveries">
          {deliveries.isPending ? <TableMessage colSpan={COLUMNS}>Loading deliveries…</TableMessage> : null}
          {deliveries.isSuccess && items.length === 0 ? <TableMessage colSpan={COLUMNS}>No deliveries yet.</TableMessage> : null}
          {items.map((delivery) => (
            <Tr
              key={delivery.id}
              data-testid="trigger-delivery"
              data-status={delivery.status}
              data-accepted={delivery.accepted}
              data-run-id={delivery.runId ?? ''}
            >
              <Td className="text-xs whitespace-nowrap text-muted">{formatDateTime(delivery.createdAt)}</Td>
              <Td className="text-xs whitespace-nowrap">
                <Badge tone={statusTone(delivery.status, delivery.accepted)} data-testid="trigger-delivery-status">
                  {delivery.status} {delivery.accepted ? 'accepted' : 'refused'}
                </Badge>
              </Td>
              <Td className="max-w-md text-xs text-muted" data-testid="trigger-delivery-reason">
                {delivery.reason ?? '—'}
              </Td>
              <Td className="max-w-48 truncate font-mono text-[11px] text-muted" title={delivery.webhookId ?? undefined}>
                {delivery.webhookId ?? '—'}
              </Td>
              <Td className="text-xs text-muted tabular-nums">{delivery.bytes.toLocaleString('en-US')} B</Td>
              <Td className="text-xs whitespace-nowrap">
                {delivery.runId ? (
                  <Link href={`${base}/runs/${delivery.runId}`} className="font-mono text-accent hover:underline" data-testid="trigger-delivery-run">
                    {delivery.runId}
                  </Link>
                ) : (
                  <span className="text-muted">—</span>
                )}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      {deliveries.hasNextPage ? (
        <div className="border-t border-border p-3 text-center">
          <Button size="sm" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage} data-testid="trigger-deliveries-more">
            Load older deliveries
          </Button>
        </div>
      ) : null}
    </>
  );
}
