import { describe, expect, it } from 'vitest';
import { layeredLayout } from './graph-layout';

const demo = {
  keys: ['coder', 'planner', 'researcher', 'reviewer'],
  edges: [
    { from: 'planner', to: 'researcher' },
    { from: 'planner', to: 'coder' },
    { from: 'coder', to: 'reviewer' },
  ],
};

describe('layeredLayout', () => {
  it('puts the root on top and every edge pointing down, rows centred', () => {
    const layout = layeredLayout(demo.keys, demo.edges, 'planner');
    expect(layout.get('planner')).toEqual({ x: 120, y: 0 });
    expect(layout.get('coder')).toEqual({ x: 0, y: 140 });
    expect(layout.get('researcher')).toEqual({ x: 240, y: 140 });
    expect(layout.get('reviewer')).toEqual({ x: 120, y: 280 });
    for (const edge of demo.edges) expect(layout.get(edge.to)!.y).toBeGreaterThan(layout.get(edge.from)!.y);
  });

  it('places a node below its deepest parent', () => {
    const layout = layeredLayout(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'a', to: 'c' }], 'a');
    expect([layout.get('a')!.y, layout.get('b')!.y, layout.get('c')!.y]).toEqual([0, 140, 280]);
  });

  it('gives unreachable nodes a row at the bottom and survives a cycle', () => {
    const layout = layeredLayout(['a', 'b', 'lost'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }], 'a');
    expect(layout.size).toBe(3);
    expect(layout.get('lost')!.y).toBeGreaterThan(layout.get('b')!.y);
  });
});
