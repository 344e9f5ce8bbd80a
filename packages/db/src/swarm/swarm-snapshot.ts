import { z } from 'zod';
import { approvalRuleSchema, dataRuleSchema, edgeBudgetSchema, memoryPrefixesSchema, nodeKeySchema } from './swarm-rules';

/** One node of a graph run, as the worker starts its sessions: the agent's snapshotted config. */
const snapshotNodeSchema = z.object({
  key: nodeKeySchema,
  agentId: z.string(),
  endpointId: z.string(),
  title: z.string(),
  isolation: z.enum(['shared', 'process']),
  readPrefixes: memoryPrefixesSchema,
  writePrefixes: memoryPrefixesSchema,
  /** The engine run config of the node's sessions (its `delegate` targets are its outgoing edges). */
  config: z.record(z.string(), z.json()),
});

const snapshotEdgeSchema = z.object({
  id: z.string(),
  from: nodeKeySchema,
  to: nodeKeySchema,
  purpose: z.string(),
  budget: edgeBudgetSchema,
  approval: approvalRuleSchema,
  data: dataRuleSchema,
});

/**
 * `Run.swarm`: the graph version a run started from, with every node's config built then, so a
 * later edit of the graph or of an agent never changes a run that exists.
 */
export const swarmSnapshotSchema = z.object({
  graphId: z.string(),
  version: z.int(),
  root: nodeKeySchema,
  nodes: z.array(snapshotNodeSchema),
  edges: z.array(snapshotEdgeSchema),
});
export type SwarmSnapshot = z.infer<typeof swarmSnapshotSchema>;
export type SwarmSnapshotNode = SwarmSnapshot['nodes'][number];
export type SwarmSnapshotEdge = SwarmSnapshot['edges'][number];
