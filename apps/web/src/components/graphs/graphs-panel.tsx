'use client';

import { roleAtLeast } from '@looplane/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Td, Th, Tr } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

const linkButton = 'inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium';

/** The team's swarm graphs: edit one, or start a run of it and watch its live graph. */
export function GraphsPanel() {
  const trpc = useTRPC();
  const router = useRouter();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const graphs = useQuery(trpc.graphs.list.queryOptions({ teamId: team.id }));
  const [goal, setGoal] = useState('Ship the most requested feature');
  const start = useMutation(trpc.runs.create.mutationOptions({ onSuccess: ({ runId }) => router.push(`${base}/graphs/runs/${runId}`) }));
  const canEdit = roleAtLeast(role, 'operator');

  return (
    <Card>
      <CardHeader
        title="Swarm graphs"
        description="Agents as nodes; every edge between them has a budget, an approval rule and a data rule."
        actions={
          canEdit ? (
            <Link href={`${base}/graphs/new`} className={`${linkButton} bg-accent text-accent-foreground hover:bg-accent-hover`} data-testid="graphs-new">
              <Plus aria-hidden className="size-3.5" /> New graph
            </Link>
          ) : null
        }
      />
      <InlineError error={graphs.error ?? start.error} testId="graphs-error" className="m-4" />
      {canEdit ? (
        <div className="flex items-center gap-2 px-4 pt-3">
          <label htmlFor="graph-goal" className="text-xs text-muted">
            Goal for a new run
          </label>
          <Input id="graph-goal" value={goal} onChange={(e) => setGoal(e.target.value)} className="max-w-md" data-testid="graph-goal" />
        </div>
      ) : null}
      <Table>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Root</Th>
            <Th>Nodes</Th>
            <Th>Edges</Th>
            <Th>Version</Th>
            <Th>Updated</Th>
            <Th className="text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {graphs.isPending ? <TableMessage colSpan={7}>Loading graphs…</TableMessage> : null}
          {graphs.data?.length === 0 ? <TableMessage colSpan={7}>No graphs yet.</TableMessage> : null}
          {graphs.data?.map((graph) => (
            <Tr key={graph.id} data-testid="graph-row" data-graph-name={graph.name}>
              <Td className="font-medium">
                <Link href={`${base}/graphs/${graph.id}`} className="hover:text-accent" data-testid="graph-edit">
                  {graph.name}
                </Link>
                {graph.description ? <span className="ml-2 text-xs font-normal text-muted">{graph.description}</span> : null}
              </Td>
              <Td className="font-mono text-xs">{graph.root}</Td>
              <Td className="tabular-nums text-muted">{graph.nodes}</Td>
              <Td className="tabular-nums text-muted">{graph.edges}</Td>
              <Td className="tabular-nums text-muted">v{graph.currentVersion}</Td>
              <Td className="text-muted">{formatDate(graph.updatedAt)}</Td>
              <Td className="text-right">
                {canEdit ? (
                  <Button
                    size="sm"
                    variant="primary"
                    data-testid="graph-run"
                    disabled={start.isPending || !goal.trim()}
                    onClick={() => start.mutate({ teamId: team.id, graphId: graph.id, goal })}
                  >
                    Run
                  </Button>
                ) : null}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
