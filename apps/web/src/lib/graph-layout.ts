import dagre from '@dagrejs/dagre';

/** Where the live graph draws each node: its top-left `{ x, y }` by node key (React Flow's origin). */
export type GraphLayout = Map<string, { x: number; y: number }>;

/** A node to lay out, with the size it is drawn at (so the layout can keep nodes apart). */
export interface LayoutNode {
  key: string;
  width: number;
  height: number;
}

const GAP_X = 48;
const GAP_Y = 72;

/** The keys the root reaches along the edges (breadth first). */
function reachable(root: string, edges: ReadonlyArray<{ from: string; to: string }>): Set<string> {
  const seen = new Set([root]);
  const queue = [root];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    for (const edge of edges) {
      if (edge.from === key && !seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return seen;
}

/**
 * A layered (Sugiyama) layout of a rooted DAG by dagre, top to bottom: the root on the top rank,
 * every edge pointing down, crossings reduced and no node overlapping another at its drawn size.
 * Nodes the root does not reach (a graph is checked on save, so only in old data) are left out of
 * the ranking, so they cannot pull the root down, and get a row of their own below the rest.
 */
export function layeredLayout(nodes: readonly LayoutNode[], edges: ReadonlyArray<{ from: string; to: string }>, root: string): GraphLayout {
  const reached = reachable(root, edges);
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: GAP_X, ranksep: GAP_Y });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) if (reached.has(node.key)) graph.setNode(node.key, { width: node.width, height: node.height });
  // A cycle (rejected on save) is broken by dagre's acyclic pass, so it cannot hang the layout.
  for (const edge of edges) if (graph.hasNode(edge.from) && graph.hasNode(edge.to)) graph.setEdge(edge.from, edge.to);
  dagre.layout(graph);

  const layout: GraphLayout = new Map();
  let bottom = 0;
  for (const node of nodes) {
    if (!graph.hasNode(node.key)) continue;
    const placed = graph.node(node.key);
    // dagre gives the centre; React Flow positions a node by its top-left corner.
    layout.set(node.key, { x: placed.x - node.width / 2, y: placed.y - node.height / 2 });
    bottom = Math.max(bottom, placed.y + node.height / 2);
  }
  let x = 0;
  for (const node of nodes) {
    if (layout.has(node.key)) continue;
    layout.set(node.key, { x, y: bottom + GAP_Y });
    x += node.width + GAP_X;
  }
  return layout;
}
