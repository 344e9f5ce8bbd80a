'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Th } from '@/components/ui/table';
import { useTRPC } from '@/trpc/client';
import { EndpointForm } from './endpoint-form';
import { EndpointRow } from './endpoint-row';

/** Model endpoints of the team: list (operator+), create/edit/test/delete (admin). */
export function EndpointsPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const canManage = role === 'admin';
  const canList = roleAtLeast(role, 'operator');
  const endpoints = useQuery({ ...trpc.endpoints.list.queryOptions({ teamId: team.id }), enabled: canList });
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const editedEndpoint = endpoints.data?.find((e) => e.id === editing);

  if (!canList) {
    return (
      <p className="text-muted" data-testid="endpoints-viewer-note">
        Operators and admins see the team’s model endpoints.
      </p>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      {canManage && editing !== null ? (
        <Card>
          <CardHeader
            title={editedEndpoint ? `Edit ${editedEndpoint.name}` : 'New model endpoint'}
            description="OpenAI-compatible servers (OpenAI, vLLM, Ollama, LiteLLM…) or the offline faux model."
          />
          <EndpointForm key={editing} teamId={team.id} endpoint={editedEndpoint} onDone={() => setEditing(null)} />
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Model endpoints"
          description="Keys are encrypted at rest and never shown again; only their last 4 characters."
          actions={
            canManage && editing === null ? (
              <Button variant="primary" size="sm" onClick={() => setEditing('new')} data-testid="endpoint-new">
                <Plus className="size-3.5" aria-hidden />
                New endpoint
              </Button>
            ) : null
          }
        />
        <InlineError error={endpoints.error} testId="endpoints-load-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Kind</Th>
              <Th>Model</Th>
              <Th>Key</Th>
              <Th>Price in / out per MTok</Th>
              <Th>Used by</Th>
              <Th>Status</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </thead>
          <tbody data-testid="endpoints-table">
            {endpoints.isPending ? <TableMessage colSpan={8}>Loading…</TableMessage> : null}
            {endpoints.data?.length === 0 ? <TableMessage colSpan={8}>No endpoints yet.</TableMessage> : null}
            {endpoints.data?.map((endpoint) => (
              <EndpointRow key={endpoint.id} teamId={team.id} endpoint={endpoint} canManage={canManage} onEdit={() => setEditing(endpoint.id)} />
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
