'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Th } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useNow } from '@/lib/use-now';
import { webhookState } from '@/lib/webhook-status';
import { useTRPC } from '@/trpc/client';
import { DELIVERY_COLUMNS, DeliveryRow } from './delivery-row';
import { WebhooksAdminOnly } from './webhooks-admin-only';

const PAGE = 20;
/** While something is pending the log polls quickly, so each attempt shows within a couple of seconds; otherwise slowly, for new events. */
const BUSY_POLL_MS = 1500;
const IDLE_POLL_MS = 5000;

/**
 * One endpoint's delivery log (admin): its deliveries newest first, a page at a time as
 * `webhooks.deliveries` pages, each expandable to its attempts, with Redeliver. It polls: the
 * worker records attempts, and the team's activity stream does not carry them.
 */
export function DeliveriesPanel({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const now = useNow(1000) ?? 0;
  const webhook = useQuery({ ...trpc.webhooks.get.queryOptions({ teamId: team.id, webhookId }), enabled: isAdmin, refetchInterval: IDLE_POLL_MS });
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { teamId: team.id, webhookId, limit: PAGE },
      {
        getNextPageParam: (page) => page.nextCursor ?? undefined,
        enabled: isAdmin,
        refetchInterval: (query) =>
          query.state.data?.pages.some((page) => page.items.some((d) => d.status === 'pending' || d.inFlight)) ? BUSY_POLL_MS : IDLE_POLL_MS,
      },
    ),
  );
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.webhooks.pathFilter()) }));

  if (!isAdmin) return <WebhooksAdminOnly />;

  const endpoint = webhook.data;
  const state = endpoint ? webhookState(endpoint) : null;
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="flex flex-col gap-6">
      <Link
        href={`/t/${team.slug}/settings/webhooks`}
        className="inline-flex items-center gap-1.5 text-xs text-muted hover:text-foreground"
        data-testid="webhook-log-back"
      >
        <ArrowLeft className="size-3.5" aria-hidden />
        All webhooks
      </Link>
      <InlineError error={webhook.error} testId="webhook-load-error" />
      <Card>
        <CardHeader
          title={
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-[13px] break-all" data-testid="webhook-log-url">
                {endpoint?.url ?? 'Delivery log'}
              </span>
              {state ? (
                <Badge tone={state.tone} data-testid="webhook-log-state">
                  {state.label}
                </Badge>
              ) : null}
            </span>
          }
          description={
            endpoint ? (
              <span className="flex flex-col gap-0.5">
                {endpoint.description ? <span>{endpoint.description}</span> : null}
                {state?.reason ? (
                  <span data-testid="webhook-log-reason">
                    {state.kind === 'disabled-by-admin' ? 'Disabled by an admin' : `Disabled automatically: ${state.reason}`}
                    {endpoint.disabledAt ? ` (${formatDateTime(endpoint.disabledAt)})` : ''}
                  </span>
                ) : null}
                {endpoint.failingSince ? <span className="text-warning">Failing since {formatDateTime(endpoint.failingSince)}</span> : null}
                <span data-testid="webhook-log-counts">
                  {endpoint.deliveries.delivered} delivered · {endpoint.deliveries.pending} pending · {endpoint.deliveries.failed} failed ·{' '}
                  {endpoint.deliveries.skipped} skipped
                </span>
              </span>
            ) : undefined
          }
          actions={
            endpoint ? (
              <Button
                size="sm"
                disabled={!endpoint.enabled || test.isPending}
                title={endpoint.enabled ? 'Send a webhook.test event now' : 'Enable the endpoint to send it anything'}
                onClick={() => test.mutate({ teamId: team.id, webhookId })}
                data-testid="webhook-log-test"
              >
                Send test
              </Button>
            ) : null
          }
        />
        <InlineError error={test.error ?? deliveries.error} testId="webhook-log-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>
                <span className="sr-only">Attempts</span>
              </Th>
              <Th>Event</Th>
              <Th>webhook-id</Th>
              <Th>Status</Th>
              <Th>Created</Th>
              <Th>Attempts</Th>
              <Th>Next attempt</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody data-testid="deliveries-table">
            {deliveries.isPending ? <TableMessage colSpan={DELIVERY_COLUMNS}>Loading…</TableMessage> : null}
            {deliveries.isSuccess && items.length === 0 ? (
              <TableMessage colSpan={DELIVERY_COLUMNS}>No deliveries yet. Send a test event to see one.</TableMessage>
            ) : null}
            {items.map((delivery) => (
              <DeliveryRow key={delivery.id} teamId={team.id} delivery={delivery} endpointEnabled={endpoint?.enabled ?? false} now={now} />
            ))}
          </tbody>
        </Table>
        {deliveries.hasNextPage ? (
          <div className="border-t border-border p-3 text-center">
            <Button size="sm" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage} data-testid="deliveries-more">
              Load older deliveries
            </Button>
          </div>
        ) : null}
      </Card>
    </div>
  );
}
