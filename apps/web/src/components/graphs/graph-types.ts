import type { AppRouter } from '@looplane/api';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

export type GraphView = inferRouterOutputs<AppRouter>['graphs']['get'];
export type GraphRunView = inferRouterOutputs<AppRouter>['graphs']['run'];
/** What `graphs.create/update` take as `definition`. */
export type GraphDefinitionInput = inferRouterInputs<AppRouter>['graphs']['create']['definition'];
export type DraftNode = GraphDefinitionInput['nodes'][number];
export type DraftEdge = NonNullable<GraphDefinitionInput['edges']>[number];

/** The editable definition of a stored graph version. */
export function definitionOf(graph: GraphView): GraphDefinitionInput {
  return {
    root: graph.root,
    nodes: graph.nodes.map((n) => ({
      key: n.key,
      agentId: n.agentId,
      isolation: n.isolation,
      readPrefixes: n.readPrefixes,
      writePrefixes: n.writePrefixes,
      position: n.position,
      minimumDriver: n.minimumDriver,
    })),
    edges: graph.edges.map((e) => ({
      from: e.from,
      to: e.to,
      purpose: e.purpose,
      budget: e.budget as DraftEdge['budget'],
      approval: e.approval as DraftEdge['approval'],
      data: e.data as DraftEdge['data'],
    })),
  };
}
