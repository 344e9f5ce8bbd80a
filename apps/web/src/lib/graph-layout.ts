/** Where the live graph draws each node: `{ x, y }` by node key. */
export type GraphLayout = Map<string, { x: number; y: number }>;

const COLUMN = 240;
const ROW = 140;

/**
 * A layered layout of a rooted DAG: each node one row below its deepest parent (its longest
 * path from the root), the nodes of a row side by side and the rows centred on each other, so
 * every edge points down and none runs behind a node. Nodes the root does not reach (a graph is
 * checked on save, so only in old data) get a row of their own at the bottom.
 */
export function layeredLayout(keys: readonly string[], edges: ReadonlyArray<{ from: string; to: string }>, root: string): GraphLayout {
  const depth = new Map<string, number>([[root, 0]]);
  // Relax along the edges until nothing deepens; a DAG settles within keys.length rounds, and
  // the bound keeps a cycle (rejected on save) from looping forever.
  for (let round = 0; round < keys.length; round++) {
    let changed = false;
    for (const edge of edges) {
      const from = depth.get(edge.from);
      if (from === undefined) continue;
      if ((depth.get(edge.to) ?? -1) < from + 1) {
        depth.set(edge.to, from + 1);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const deepest = Math.max(0, ...depth.values());
  const rows = new Map<number, string[]>();
  for (const key of keys) {
    const row = depth.get(key) ?? deepest + 1;
    rows.set(row, [...(rows.get(row) ?? []), key]);
  }
  const widest = Math.max(1, ...[...rows.values()].map((row) => row.length));
  const layout: GraphLayout = new Map();
  for (const [row, members] of rows) {
    const offset = ((widest - members.length) * COLUMN) / 2;
    members.forEach((key, i) => layout.set(key, { x: offset + i * COLUMN, y: row * ROW }));
  }
  return layout;
}
