'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { Play, Plus } from 'lucide-react';
import Link from 'next/link';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

const linkButton = 'inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium';

/** The team's agent templates, with a way to start a run of each. */
export function AgentsPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const canEdit = roleAtLeast(role, 'operator');

  return (
    <Card>
      <CardHeader
        title="Agent templates"
        description="A run starts from a template: endpoint, system prompt, tools, sandbox and slash commands."
        actions={
          canEdit ? (
            <Link href={`${base}/agents/new`} className={`${linkButton} bg-accent text-accent-foreground hover:bg-accent-hover`} data-testid="agents-new">
              <Plus aria-hidden className="size-3.5" /> New agent
            </Link>
          ) : null
        }
      />
      <InlineError error={agents.error} testId="agents-load-error" className="m-4" />
      <Table>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Endpoint</Th>
            <Th>Tools</Th>
            <Th>Commands</Th>
            <Th>Busy policy</Th>
            <Th>Version</Th>
            <Th>Updated</Th>
            <Th className="text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {agents.isPending ? <TableMessage colSpan={8}>Loading agents…</TableMessage> : null}
          {agents.data?.length === 0 ? <TableMessage colSpan={8}>No agents yet.</TableMessage> : null}
          {agents.data?.map((agent) => (
            <Tr key={agent.id} data-testid="agent-row" data-agent-name={agent.name}>
              <Td className="font-medium">
                {canEdit ? (
                  <Link href={`${base}/agents/${agent.id}`} className="hover:text-accent" data-testid="agent-edit">
                    {agent.name}
                  </Link>
                ) : (
                  agent.name
                )}
                {agent.description ? <span className="ml-2 text-xs font-normal text-muted">{agent.description}</span> : null}
              </Td>
              <Td className="text-muted">
                {agent.endpoint.name} <span className="text-xs">({agent.endpoint.model})</span>
                {agent.endpoint.deleted ? <Badge tone="danger">deleted</Badge> : null}
              </Td>
              <Td className="text-muted">{agent.tools.length}</Td>
              <Td className="font-mono text-xs text-muted">{agent.slashCommands.map((c) => `/${c.name}`).join(' ') || '—'}</Td>
              <Td>
                <Badge>{agent.busyPolicy}</Badge>
              </Td>
              <Td className="text-muted tabular-nums">v{agent.version}</Td>
              <Td className="text-muted">{formatDate(agent.updatedAt)}</Td>
              <Td className="text-right">
                {canEdit ? (
                  <Link href={`${base}/runs/new?agent=${agent.id}`} className={`${linkButton} text-accent hover:bg-accent-soft`} data-testid="agent-run">
                    <Play aria-hidden className="size-3" /> Run
                  </Link>
                ) : null}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
