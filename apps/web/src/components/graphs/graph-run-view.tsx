'use client';

import { isTerminalRunStatus } from '@looplane/db/vocabulary';

import '@xyflow/react/dist/style.css';
import { roleAtLeast } from '@looplane/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Background, ReactFlow, type Edge, type Node } from '@xyflow/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { layeredLayout } from '@/lib/graph-layout';
import { useTRPC } from '@/trpc/client';
import { EdgeGauge } from './edge-gauge';
import type { GraphRunView } from './graph-types';

/** The size each node is drawn at: given to React Flow and to the layout, so they agree. */
const NODE_SIZE = { width: 200, height: 56 };

const STATE_STYLE: Record<string, string> = {
  idle: '#94a3b8',
  running: '#3b82f6',
  waiting: '#f59e0b',
  succeeded: '#22c55e',
  failed: '#ef4444',
  cancelled: '#6b7280',
};

/** A node's state: its latest session's (a node may run several sessions in one run). */
function nodeState(view: GraphRunView, key: string) {
  const sessions = view.sessions.filter((s) => s.nodeKey === key);
  const last = sessions.at(-1);
  return {
    sessions,
    status: last ? `${last.status}${last.waitReason ? ` (${last.waitReason})` : ''}` : 'not started',
    color: STATE_STYLE[last?.status ?? ''] ?? '#cbd5e1',
    last,
  };
}

/**
 * The live graph of a graph run: node states, active delegations, and each edge's spend against
 * its budget (refreshed every second). Clicking a node opens its latest session; an approver
 * can raise an edge's budget here (a node parked on it resumes).
 */
export function GraphRunLive({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { team, role } = useTeamScope();
  const view = useQuery({ ...trpc.graphs.run.queryOptions({ teamId: team.id, runId }), refetchInterval: 1000 });
  const raise = useMutation(trpc.graphs.raiseEdgeBudget.mutationOptions({ onSuccess: () => view.refetch() }));
  if (view.error) return <InlineError error={view.error} testId="graph-run-error" />;
  if (!view.data) return <p className="text-muted">Loading…</p>;
  const data = view.data;
  // Laid out from the structure (root on top, edges pointing down): a grid by index drew edges
  // behind other nodes.
  const layout = layeredLayout(
    data.nodes.map((n) => ({ key: n.key, ...NODE_SIZE })),
    data.edges,
    data.root,
  );
  const nodes: Node[] = data.nodes.map((n) => {
    const state = nodeState(data, n.key);
    return {
      id: n.key,
      position: layout.get(n.key) ?? { x: 0, y: 0 },
      ...NODE_SIZE,
      data: { label: `${n.key}${n.key === data.root ? ' ★' : ''} — ${state.status}${state.sessions.length > 1 ? ` ×${state.sessions.length}` : ''}` },
      style: { borderColor: state.color, borderWidth: 2 },
    };
  });
  const edges: Edge[] = data.edges.map((e) => ({
    id: e.id,
    source: e.from,
    target: e.to,
    animated: (e.ledger?.concurrent ?? 0) > 0,
    label: e.ledger ? `${e.ledger.calls}${e.ledger.limitCalls !== null ? `/${e.ledger.limitCalls}` : ''} calls · ${e.ledger.spentCostMicros} µ$` : '',
  }));
  const canRaise = roleAtLeast(role, 'approver') && !isTerminalRunStatus(data.status);
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader
          title="Live graph"
          description={`Run ${data.status}. Click a node to open its session.`}
          actions={
            <Link href={`/t/${team.slug}/runs/${runId}`} className="text-xs text-accent">
              Run page
            </Link>
          }
        />
        <div className="h-[420px] p-4" data-testid="graph-live" data-run-status={data.status}>
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodesDraggable={false}
            onNodeClick={(_, n) => {
              const last = nodeState(data, n.id).last;
              if (last) router.push(`/t/${team.slug}/runs/${runId}?session=${last.id}`);
            }}
            fitView
          >
            <Background />
          </ReactFlow>
        </div>
        <ul className="flex flex-wrap gap-3 px-4 pb-4 text-xs">
          {data.nodes.map((n) => (
            <li key={n.key} data-testid="graph-node-state" data-node={n.key} data-status={nodeState(data, n.key).last?.status ?? 'none'}>
              <span className="font-mono">{n.key}</span>: {nodeState(data, n.key).status}
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <CardHeader title="Edge budgets" description="Spent and reserved against each edge's limits over this run." />
        <InlineError error={raise.error} testId="graph-raise-error" className="m-4" />
        <div className="grid gap-4 p-4 md:grid-cols-2">
          {data.edges.map((e) => (
            <div key={e.id} className="flex flex-col gap-2 rounded-md border border-border p-3" data-testid="edge-gauge" data-edge={`${e.from}->${e.to}`}>
              <p className="text-sm font-medium">
                {e.from} → {e.to} <span className="text-xs font-normal text-muted">{e.purpose}</span>
              </p>
              {e.ledger ? <EdgeGauge ledger={e.ledger} /> : null}
              {canRaise && e.ledger ? (
                <Button
                  size="sm"
                  className="self-start"
                  data-testid="edge-raise"
                  disabled={raise.isPending}
                  onClick={() =>
                    raise.mutate({
                      teamId: team.id,
                      runId,
                      edgeId: e.id,
                      ...(e.ledger?.limitCostMicros !== null ? { costMicros: Math.max(1000, e.ledger!.limitCostMicros!) } : {}),
                      ...(e.ledger?.limitTokens !== null ? { tokens: Math.max(1000, e.ledger!.limitTokens!) } : {}),
                      ...(e.ledger?.limitCalls !== null ? { calls: Math.max(1, e.ledger!.limitCalls!) } : {}),
                    })
                  }
                >
                  Raise budget
                </Button>
              ) : null}
            </div>
          ))}
        </div>
      </Card>
    </div>
  );
}
