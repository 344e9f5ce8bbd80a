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
import { TriggerForm } from './trigger-form';
import { TriggerRow } from './trigger-row';
import { TriggerSecret, type ShownTriggerSecret } from './trigger-secret';
import { useTargetNames } from './use-target-names';

const COLUMNS = 5;

/**
 * The team's inbound triggers: every member sees them and their deliveries; admins create one
 * (its secret shown once, with its public URL and a curl example), enable or disable it, rotate
 * its secret and delete it.
 */
export function TriggersPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const base = `/t/${team.slug}`;
  const triggers = useQuery(trpc.triggers.list.queryOptions({ teamId: team.id }));
  const nameOf = useTargetNames(team.id);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ShownTriggerSecret | null>(null);

  return (
    <div className="flex flex-col gap-6">
      {shown ? <TriggerSecret shown={shown} onDismiss={() => setShown(null)} /> : null}
      {creating ? (
        <Card>
          <CardHeader
            title="New trigger"
            description="An outside system (a mail hook, a ticket tracker, CI) POSTs JSON to the trigger's URL; a repeated webhook-id gets the same run."
          />
          <TriggerForm
            onCreated={(created) => {
              setShown(created);
              setCreating(false);
            }}
            onDone={() => setCreating(false)}
          />
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Triggers"
          description={
            isAdmin ? 'Public URLs that start runs or message a run, for deliveries signed with their secret.' : 'Admins create and change triggers.'
          }
          actions={
            isAdmin && !creating ? (
              <Button variant="primary" size="sm" onClick={() => setCreating(true)} data-testid="trigger-new">
                <Plus className="size-3.5" aria-hidden />
                New trigger
              </Button>
            ) : null
          }
        />
        <InlineError error={triggers.error} testId="triggers-load-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>Trigger</Th>
              <Th>Each delivery</Th>
              <Th>Auth</Th>
              <Th>State</Th>
              <Th className="text-right">
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody data-testid="triggers-table">
            {triggers.isPending ? <TableMessage colSpan={COLUMNS}>Loading triggers…</TableMessage> : null}
            {triggers.data?.length === 0 ? <TableMessage colSpan={COLUMNS}>No triggers yet.</TableMessage> : null}
            {triggers.data?.map((trigger) => (
              <TriggerRow key={trigger.id} teamId={team.id} base={base} trigger={trigger} isAdmin={isAdmin} nameOf={nameOf} onSecret={setShown} />
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
