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
import { SecretForm } from './secret-form';
import { SecretRow } from './secret-row';

/**
 * Team secrets (admin): the values the egress proxy injects for the hosts whose policy credential
 * names them, and the forge tokens and ssh keys the worker clones, pushes and opens pull requests
 * with. Also lists the policy's references to secrets that do not exist: those hosts are
 * refused until the secret is added.
 */
export function SecretsPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const secrets = useQuery({ ...trpc.secrets.list.queryOptions({ teamId: team.id }), enabled: isAdmin });
  const [editing, setEditing] = useState<string | 'new' | null>(null);

  if (!isAdmin)
    return (
      <p className="text-muted" data-testid="secrets-admin-note">
        Only admins see and manage the team’s secrets.
      </p>
    );

  const missing = secrets.data?.missing ?? [];
  const replacing = editing === 'new' ? undefined : secrets.data?.secrets.find((secret) => secret.name === editing);
  return (
    <div className="flex flex-col gap-6">
      {editing !== null ? <SecretForm key={editing} teamId={team.id} {...(replacing ? { secret: replacing } : {})} onDone={() => setEditing(null)} /> : null}
      {missing.length ? (
        <div className="rounded-md bg-warning-soft p-3 text-[13px] text-warning ring-1 ring-warning/25" data-testid="secrets-missing">
          <p className="font-medium">The active policy names secrets that do not exist; requests to these hosts are refused:</p>
          <ul className="mt-1 list-disc pl-5 font-mono text-xs">
            {missing.map((m) => (
              <li key={`${m.secretRef} ${m.host} ${m.header}`}>
                {m.secretRef} ({m.header} → {m.host})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Card>
        <CardHeader
          title="Secrets"
          description="Header values for the policy’s egress credentials, forge tokens and SSH keys for a run’s git repository (secretRef). Encrypted at rest, never shown again, never given to a sandbox."
          actions={
            editing === null ? (
              <Button variant="primary" size="sm" onClick={() => setEditing('new')} data-testid="secret-new">
                <Plus className="size-3.5" aria-hidden />
                Add secret
              </Button>
            ) : null
          }
        />
        <InlineError error={secrets.error} testId="secrets-load-error" className="m-4" />
        <Table>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Kind</Th>
              <Th>Value</Th>
              <Th>Used by (active policy)</Th>
              <Th>Updated</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </thead>
          <tbody data-testid="secrets-table">
            {secrets.isPending ? <TableMessage colSpan={6}>Loading…</TableMessage> : null}
            {secrets.data?.secrets.length === 0 ? <TableMessage colSpan={6}>No secrets yet.</TableMessage> : null}
            {secrets.data?.secrets.map((secret) => (
              <SecretRow key={secret.id} teamId={team.id} secret={secret} onReplace={() => setEditing(secret.name)} />
            ))}
          </tbody>
        </Table>
      </Card>
    </div>
  );
}
