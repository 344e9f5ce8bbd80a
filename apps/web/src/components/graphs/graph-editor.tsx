'use client';

import '@xyflow/react/dist/style.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Background, Controls, ReactFlow, applyNodeChanges, type Connection, type Edge, type Node, type NodeChange } from '@xyflow/react';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { EdgeInspector, NodeInspector } from './graph-inspector';
import { definitionOf as definitionFromView, type DraftEdge, type GraphDefinitionInput } from './graph-types';

type Selection = { kind: 'node'; key: string } | { kind: 'edge'; id: string } | null;
const edgeId = (e: { from: string; to: string }) => `${e.from}->${e.to}`;

/**
 * The graph editor: nodes (agent templates) and edges on a canvas; drag nodes, connect a node's
 * handle to another to add an edge, click one to edit it. Saving makes a new version (the server
 * validates: one root, no edge to a missing node, no cycles, valid rules).
 */
function GraphEditor({ graphId, initial, version }: { graphId: string | null; initial: GraphDefinitionInput; version: number | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { team } = useTeamScope();
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<GraphDefinitionInput>(initial);
  const [selected, setSelected] = useState<Selection>(null);
  // Sizes React Flow measured, keyed by node. Controlled nodes must carry them back: a node passed
  // without `measured` is treated as unmeasured again, stays hidden and gets no edges drawn.
  const [measured, setMeasured] = useState<Record<string, { width?: number; height?: number }>>({});
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.graphs.pathKey() });
    router.push(`/t/${team.slug}/graphs`);
  };
  const create = useMutation(trpc.graphs.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.graphs.update.mutationOptions({ onSuccess: done }));
  const edges = draft.edges ?? [];

  const flowNodes: Node[] = useMemo(() => {
    const names = new Map((agents.data ?? []).map((a) => [a.id, a.name]));
    return draft.nodes.map((n) => ({
      id: n.key,
      position: n.position ?? { x: 0, y: 0 },
      measured: measured[n.key],
      data: { label: `${n.key}${n.key === draft.root ? ' ★' : ''} · ${names.get(n.agentId) ?? '?'}${n.isolation === 'process' ? ' · process' : ''}` },
      selected: selected?.kind === 'node' && selected.key === n.key,
    }));
  }, [draft.nodes, draft.root, selected, agents.data, measured]);
  const flowEdges: Edge[] = useMemo(() => edges.map((e) => ({ id: edgeId(e), source: e.from, target: e.to, label: e.purpose, animated: false })), [edges]);

  const onNodesChange = (changes: NodeChange[]) => {
    const moved = applyNodeChanges(changes, flowNodes);
    if (changes.some((c) => c.type === 'dimensions')) {
      setMeasured(Object.fromEntries(moved.flatMap((m) => (m.measured ? [[m.id, m.measured]] : []))));
    }
    setDraft((d) => ({ ...d, nodes: d.nodes.map((n) => ({ ...n, position: moved.find((m) => m.id === n.key)?.position ?? n.position })) }));
  };
  const onConnect = (c: Connection) => {
    if (!c.source || !c.target || c.source === c.target || edges.some((e) => e.from === c.source && e.to === c.target)) return;
    const edge: DraftEdge = {
      from: c.source,
      to: c.target,
      purpose: `${c.source} delegates to ${c.target}`,
      budget: { calls: 10, maxConcurrent: 1 },
      approval: { mode: 'never' },
      data: { redact: [] },
    };
    setDraft((d) => ({ ...d, edges: [...(d.edges ?? []), edge] }));
    setSelected({ kind: 'edge', id: edgeId(edge) });
  };
  const addNode = () => {
    const agentId = agents.data?.[0]?.id;
    if (!agentId) return;
    let i = draft.nodes.length + 1;
    while (draft.nodes.some((n) => n.key === `node${i}`)) i++;
    setDraft((d) => ({
      ...d,
      nodes: [
        ...d.nodes,
        { key: `node${i}`, agentId, isolation: 'shared', readPrefixes: [], writePrefixes: [], position: { x: 240, y: 120 * d.nodes.length } },
      ],
    }));
  };
  const save = () => {
    if (graphId) update.mutate({ teamId: team.id, graphId, ...(version ? { expectedVersion: version } : {}), definition: draft });
    else create.mutate({ teamId: team.id, name, definition: draft });
  };

  const node = selected?.kind === 'node' ? draft.nodes.find((n) => n.key === selected.key) : undefined;
  const edge = selected?.kind === 'edge' ? edges.find((e) => edgeId(e) === selected.id) : undefined;
  return (
    <Card>
      <CardHeader
        title={graphId ? `Edit graph (v${version})` : 'New graph'}
        description="Drag nodes; connect a node to another to add an edge; click to edit. ★ marks the root."
        actions={
          <div className="flex gap-2">
            <Button size="sm" onClick={addNode} data-testid="graph-add-node">
              Add node
            </Button>
            <Button size="sm" variant="primary" onClick={save} disabled={create.isPending || update.isPending || (!graphId && !name)} data-testid="graph-save">
              Save
            </Button>
          </div>
        }
      />
      <InlineError error={create.error ?? update.error ?? agents.error} testId="graph-save-error" className="m-4" />
      {!graphId ? (
        <div className="px-4 pt-3">
          <Field label="Name" htmlFor="graph-name">
            <Input id="graph-name" value={name} onChange={(e) => setName(e.target.value)} className="max-w-sm" data-testid="graph-name" />
          </Field>
        </div>
      ) : null}
      <div className="flex gap-4 p-4">
        <div className="h-[480px] flex-1 rounded-md border border-border" data-testid="graph-canvas">
          <ReactFlow
            nodes={flowNodes}
            edges={flowEdges}
            onNodesChange={onNodesChange}
            onConnect={onConnect}
            onNodeClick={(_, n) => setSelected({ kind: 'node', key: n.id })}
            onEdgeClick={(_, e) => setSelected({ kind: 'edge', id: e.id })}
            fitView
          >
            <Background />
            <Controls />
          </ReactFlow>
        </div>
        <aside className="w-80 shrink-0">
          {node ? (
            <NodeInspector
              key={node.key}
              node={node}
              agents={agents.data ?? []}
              isRoot={node.key === draft.root}
              onChange={(next) => setDraft((d) => ({ ...d, nodes: d.nodes.map((n) => (n.key === node.key ? next : n)) }))}
              onRemove={() => {
                setDraft((d) => ({
                  ...d,
                  nodes: d.nodes.filter((n) => n.key !== node.key),
                  edges: (d.edges ?? []).filter((e) => e.from !== node.key && e.to !== node.key),
                }));
                setSelected(null);
              }}
              onMakeRoot={() => setDraft((d) => ({ ...d, root: node.key }))}
            />
          ) : edge ? (
            <EdgeInspector
              key={edgeId(edge)}
              edge={edge}
              onChange={(next) => setDraft((d) => ({ ...d, edges: (d.edges ?? []).map((e) => (edgeId(e) === edgeId(edge) ? next : e)) }))}
              onRemove={() => {
                setDraft((d) => ({ ...d, edges: (d.edges ?? []).filter((e) => edgeId(e) !== edgeId(edge)) }));
                setSelected(null);
              }}
            />
          ) : (
            <p className="text-sm text-muted">Select a node or an edge to edit it.</p>
          )}
        </aside>
      </div>
    </Card>
  );
}

/** Loads a graph (or starts a blank one) and opens the editor. */
export function GraphEditorLoader({ graphId }: { graphId: string | null }) {
  const trpc = useTRPC();
  const { team } = useTeamScope();
  const graph = useQuery({ ...trpc.graphs.get.queryOptions({ teamId: team.id, graphId: graphId ?? '' }), enabled: graphId !== null });
  const agents = useQuery(trpc.agents.list.queryOptions({ teamId: team.id }));
  if (graph.error) return <InlineError error={graph.error} testId="graph-load-error" />;
  if (graphId && !graph.data) return <p className="text-muted">Loading…</p>;
  if (!graphId) {
    if (!agents.data) return <p className="text-muted">Loading…</p>;
    const first = agents.data[0]?.id;
    if (!first) return <p className="text-muted">Create an agent first: a node runs an agent template.</p>;
    return (
      <GraphEditor
        graphId={null}
        version={null}
        initial={{
          root: 'planner',
          nodes: [{ key: 'planner', agentId: first, isolation: 'shared', readPrefixes: [], writePrefixes: [], position: { x: 0, y: 0 } }],
          edges: [],
        }}
      />
    );
  }
  const g = graph.data!;
  return <GraphEditor graphId={g.id} version={g.version} initial={definitionFromView(g)} />;
}
