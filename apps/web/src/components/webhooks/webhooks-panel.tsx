'use client';

import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Th } from '@/components/ui/table';
import { useTRPC } from '@/trpc/client';
import { WebhooksAdminOnly } from './webhooks-admin-only';
import { WebhookForm } from './webhook-form';
import { WebhookListRow } from './webhook-row';
import { WebhookSecret, type ShownSecret } from './webhook-secret';

/**
 * The team's webhook endpoints (admin): create one and see its signing secret once; edit,
 * enable or disable, rotate the secret, send a test event, delete; each one's delivery log is a
 * page of its own. The list refreshes on a timer: the worker disables endpoints and records
 * deliveries without the page asking.
 */
export function WebhooksPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const webhooks = useQuery({ ...trpc.webhooks.list.queryOptions({ teamId: team.id }), enabled: isAdmin, refetchInterval: 5000 });
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const edited = webhooks.data?.find((w) => w.id === editing);

  if (!isAdmin) return <WebhooksAdminOnly />;

  return (
    <div className="flex flex-col gap-6">
      {shown ? <WebhookSecret shown={shown} onDismiss={() => setShown(null)} /> : null}
      {editing !== null && (editing === 'new' || edited) ? (
        <Card>
          <CardHeader
            title={edited ? 'Edit webhook' : 'New webhook'}
            description="Each delivery is a POST signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), retried for about a day."
          />
          <WebhookForm
            key={editing}
            teamId={team.id}
            {...(edited ? { webhook: edited } : {})}
            onCreated={(created) => {
              setShown(created);
              setEditing(null);
            }}
            onDone={() => setEditing(null)}
          />
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Webhooks"
          description="The team’s events POSTed to your endpoints. An endpoint failing for 24 hours, or answering 410 Gone, is disabled automatically."
          actions={
            editing === null ? (
              <Button variant="primary" size="sm" onClick={() => setEditing('new')} data-testid="webhook-new">
                <Plus className="size-3.5" aria-hidden />
                New webhook
              </Button>
            ) : null
          }
        />
        <InlineError error={webhooks.error} testId="webhooks-load-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>Endpoint</Th>
              <Th>Events</Th>
              <Th>State</Th>
              <Th>Last delivery</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </thead>
          <tbody data-testid="webhooks-table">
            {webhooks.isPending ? <TableMessage colSpan={5}>Loading…</TableMessage> : null}
            {webhooks.data?.length === 0 ? <TableMessage colSpan={5}>No webhooks yet.</TableMessage> : null}
            {webhooks.data?.map((webhook) => (
              <WebhookListRow
                key={webhook.id}
                teamId={team.id}
                base={`/t/${team.slug}`}
                webhook={webhook}
                onEdit={() => setEditing(webhook.id)}
                onSecret={setShown}
              />
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
