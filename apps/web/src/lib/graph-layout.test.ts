import { describe, expect, it } from 'vitest';
import { layeredLayout, type GraphLayout, type LayoutNode } from './graph-layout';

const size = (key: string, width = 200, height = 48): LayoutNode => ({ key, width, height });

const demo = {
  nodes: ['coder', 'planner', 'researcher', 'reviewer'].map((key) => size(key)),
  edges: [
    { from: 'planner', to: 'researcher' },
    { from: 'planner', to: 'coder' },
    { from: 'coder', to: 'reviewer' },
  ],
};

/** Every pair of drawn boxes is disjoint. */
function expectNoOverlap(layout: GraphLayout, nodes: readonly LayoutNode[]) {
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) {
      const pa = layout.get(a.key)!;
      const pb = layout.get(b.key)!;
      const apart = pa.x + a.width <= pb.x || pb.x + b.width <= pa.x || pa.y + a.height <= pb.y || pb.y + b.height <= pa.y;
      expect(apart, `${a.key} overlaps ${b.key}`).toBe(true);
    }
  }
}

describe('layeredLayout', () => {
  it('puts the root on top, every edge pointing down below its source box, nothing overlapping', () => {
    const layout = layeredLayout(demo.nodes, demo.edges, 'planner');
    expect(layout.size).toBe(4);
    const top = Math.min(...[...layout.values()].map((p) => p.y));
    expect(layout.get('planner')!.y).toBe(top);
    for (const edge of demo.edges) expect(layout.get(edge.to)!.y).toBeGreaterThanOrEqual(layout.get(edge.from)!.y + 48);
    expect(layout.get('coder')!.y).toBe(layout.get('researcher')!.y);
    expectNoOverlap(layout, demo.nodes);
  });

  it('places a node below its deepest parent', () => {
    const nodes = ['a', 'b', 'c'].map((key) => size(key));
    const layout = layeredLayout(
      nodes,
      [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'a', to: 'c' },
      ],
      'a',
    );
    const [a, b, c] = ['a', 'b', 'c'].map((k) => layout.get(k)!.y);
    expect(a).toBeLessThan(b!);
    expect(b).toBeLessThan(c!);
  });

  it('keeps wide nodes of one rank apart at their own sizes', () => {
    const nodes = [size('root'), size('wide', 480, 60), size('narrow', 80, 30), size('mid', 240, 90)];
    const edges = ['wide', 'narrow', 'mid'].map((to) => ({ from: 'root', to }));
    const layout = layeredLayout(nodes, edges, 'root');
    expectNoOverlap(layout, nodes);
  });

  it('gives unreachable nodes a row at the bottom and survives a cycle', () => {
    const nodes = ['a', 'b', 'c', 'lost', 'gone'].map((key) => size(key));
    const layout = layeredLayout(
      nodes,
      [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
        { from: 'lost', to: 'a' },
      ],
      'a',
    );
    expect(layout.size).toBe(5);
    const reachedBottom = Math.max(...['a', 'b', 'c'].map((k) => layout.get(k)!.y + 48));
    expect(layout.get('lost')!.y).toBeGreaterThan(reachedBottom);
    expect(layout.get('gone')!.y).toBe(layout.get('lost')!.y);
    expect(layout.get('a')!.y).toBeLessThan(layout.get('b')!.y);
    expectNoOverlap(layout, nodes);
  });
});
