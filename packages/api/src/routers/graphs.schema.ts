import { SANDBOX_LEVEL_DRIVERS } from '@looplane/shared';
import { approvalRuleSchema, dataRuleSchema, edgeBudgetSchema, memoryPrefixesSchema, nodeKeySchema } from '@looplane/db';
import { workspaceSourceSchema } from '@looplane/engine';
import { z } from 'zod';
import { idSchema } from '../schemas';

const MAX_NODES = 50;
const MAX_EDGES = 200;

/** Graph names are what `looplane run --graph NAME` types: lowercase, digits and dashes. */
const graphNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'must be lowercase letters, digits and dashes');

const nodeSchema = z.strictObject({
  key: nodeKeySchema,
  /** An agent template of the team: the node's prompt, tools, model and sandbox. */
  agentId: idSchema,
  /** `shared`: runs in the worker's process; `process`: each session runs in a child process of its own. */
  isolation: z.enum(['shared', 'process']).default('shared'),
  /** Blackboard key prefixes the node may read / write (`""` = every key). Default: none. */
  readPrefixes: memoryPrefixesSchema.default([]),
  writePrefixes: memoryPrefixesSchema.default([]),
  /** Where the editor draws the node. */
  position: z.strictObject({ x: z.number().min(-100_000).max(100_000), y: z.number().min(-100_000).max(100_000) }).default({ x: 0, y: 0 }),
  /** The files a run of the graph starts from when it names none (the root node's; else its agent's default). */
  workspace: workspaceSourceSchema.nullable().optional(),
  /**
   * The least isolation this node's calls run with (`bwrap` < `podman` < `gvisor`), whatever its
   * agent asks for: the stronger of the two applies.
   */
  minimumDriver: z.enum(SANDBOX_LEVEL_DRIVERS).nullable().optional(),
});

const edgeSchema = z.strictObject({
  from: nodeKeySchema,
  to: nodeKeySchema,
  /** What the edge is for: shown to the delegating model in its `delegate` tool and given to the child. */
  purpose: z.string().trim().min(1).max(500),
  budget: edgeBudgetSchema.default({}),
  approval: approvalRuleSchema.default({ mode: 'never' }),
  data: dataRuleSchema.default({ redact: [] }),
});

/**
 * A graph's nodes and edges. Rules checked here so a bad graph never gets a version: node keys
 * are unique; exactly one root (`root`), which no edge enters; every edge joins two nodes of the
 * graph, at most once per pair, never a node to itself; no cycles (a cycle would let delegation
 * recurse without end, and a path's ledgers are the edges from the root, which a cycle makes
 * unbounded); every node is reachable from the root (an unreachable node could never run).
 */
const graphDefinitionSchema = z
  .strictObject({
    root: nodeKeySchema,
    nodes: z.array(nodeSchema).min(1).max(MAX_NODES),
    edges: z.array(edgeSchema).max(MAX_EDGES).default([]),
  })
  .superRefine((graph, ctx) => {
    const keys = new Set<string>();
    for (const [i, node] of graph.nodes.entries()) {
      if (keys.has(node.key)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'key'], message: `node ${node.key} is defined twice` });
      keys.add(node.key);
    }
    if (!keys.has(graph.root)) ctx.addIssue({ code: 'custom', path: ['root'], message: `the root ${graph.root} is not a node of the graph` });
    const pairs = new Set<string>();
    const out = new Map<string, string[]>();
    for (const [i, edge] of graph.edges.entries()) {
      for (const end of ['from', 'to'] as const) {
        if (!keys.has(edge[end]))
          ctx.addIssue({ code: 'custom', path: ['edges', i, end], message: `edge ${edge.from} → ${edge.to} names a missing node ${edge[end]}` });
      }
      if (edge.from === edge.to) ctx.addIssue({ code: 'custom', path: ['edges', i, 'to'], message: `edge ${edge.from} → ${edge.to} joins a node to itself` });
      if (edge.to === graph.root)
        ctx.addIssue({ code: 'custom', path: ['edges', i, 'to'], message: `edge ${edge.from} → ${edge.to} enters the root; the root only receives the goal` });
      const pair = `${edge.from}\u0000${edge.to}`;
      if (pairs.has(pair)) ctx.addIssue({ code: 'custom', path: ['edges', i], message: `edge ${edge.from} → ${edge.to} is defined twice` });
      pairs.add(pair);
      out.set(edge.from, [...(out.get(edge.from) ?? []), edge.to]);
    }
    if (ctx.issues?.length) return;
    const cycle = findCycle(graph.root, [...keys], out);
    if (cycle) ctx.addIssue({ code: 'custom', path: ['edges'], message: `the edges form a cycle (${cycle.join(' → ')}); graphs must be acyclic` });
    const reached = new Set<string>();
    const visit = (key: string): void => {
      if (reached.has(key)) return;
      reached.add(key);
      for (const to of out.get(key) ?? []) visit(to);
    };
    visit(graph.root);
    const orphans = [...keys].filter((k) => !reached.has(k));
    if (orphans.length) ctx.addIssue({ code: 'custom', path: ['nodes'], message: `nodes not reachable from the root ${graph.root}: ${orphans.join(', ')}` });
  });
export type GraphDefinition = z.infer<typeof graphDefinitionSchema>;

/** A cycle among the edges (as the node keys along it), or null. Depth-first with colours. */
function findCycle(root: string, keys: string[], out: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const dfs = (key: string): string[] | null => {
    state.set(key, 'open');
    stack.push(key);
    for (const to of out.get(key) ?? []) {
      if (state.get(to) === 'open') return [...stack.slice(stack.indexOf(to)), to];
      if (!state.has(to)) {
        const found = dfs(to);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(key, 'done');
    return null;
  };
  for (const key of [root, ...keys]) {
    if (!state.has(key)) {
      const found = dfs(key);
      if (found) return found;
    }
  }
  return null;
}

export const createGraphInput = z.object({
  name: graphNameSchema,
  description: z.string().trim().max(2000).default(''),
  definition: graphDefinitionSchema,
});
export type CreateGraphInput = z.infer<typeof createGraphInput>;

// Top-level inputs are plain objects: tRPC merges them with the team procedure's `{ teamId }`.

/** An update always makes a new version; `expectedVersion` guards against overwriting someone's edit. */
export const updateGraphInput = z.object({
  graphId: idSchema,
  expectedVersion: z.int().min(1).max(1_000_000).optional(),
  description: z.string().trim().max(2000).optional(),
  definition: graphDefinitionSchema,
});
export type UpdateGraphInput = z.infer<typeof updateGraphInput>;

export const getGraphInput = z.object({ graphId: idSchema, version: z.int().min(1).max(1_000_000).optional() });

/** Amounts added to an edge ledger's limits in one run (an unlimited limit stays unlimited). */
export const raiseEdgeBudgetInput = z
  .object({
    runId: idSchema,
    edgeId: idSchema,
    tokens: z.int().min(1).max(10_000_000_000).optional(),
    costMicros: z.int().min(1).max(100_000_000_000).optional(),
    calls: z.int().min(1).max(1_000_000).optional(),
  })
  .refine((i) => i.tokens !== undefined || i.costMicros !== undefined || i.calls !== undefined, {
    message: 'give at least one of tokens, costMicros or calls to raise',
  });
export type RaiseEdgeBudgetInput = z.infer<typeof raiseEdgeBudgetInput>;

export const runGraphInput = z.object({ runId: idSchema });
