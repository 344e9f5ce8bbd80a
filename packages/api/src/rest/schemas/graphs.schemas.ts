import { z } from 'zod';
import { approvalRuleSchema, dataRuleSchema, edgeBudgetSchema } from '@looplane/db';
import { id, intQuery, timestamp } from './common.schemas';
import { workspaceSource } from './workspace.schemas';

export const graphIdParams = z.strictObject({ graphId: id });

export const getGraphQuery = z.strictObject({
  version: intQuery(1, 1_000_000).optional().meta({ description: 'A version of the graph (default: its current one)' }),
});

const graphSummary = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    currentVersion: z.int(),
    updatedAt: timestamp,
    root: z.string().meta({ description: 'The root node’s key' }),
    nodes: z.int().meta({ description: 'How many nodes' }),
    edges: z.int().meta({ description: 'How many edges' }),
  })
  .meta({ id: 'GraphSummary' });

export const graphList = z.array(graphSummary).meta({ id: 'GraphList', description: 'The team’s graphs (archived ones left out), by name' });

export const graph = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    version: z.int(),
    currentVersion: z.int(),
    root: z.string(),
    nodes: z.array(
      z.strictObject({
        key: z.string(),
        agentId: id,
        isolation: z.enum(['shared', 'process']),
        readPrefixes: z.array(z.string()),
        writePrefixes: z.array(z.string()),
        position: z.strictObject({ x: z.number(), y: z.number() }),
        workspace: workspaceSource
          .nullable()
          .meta({ description: 'The files a run starts from when it names none (the root node’s counts, else its agent’s)' }),
        minimumDriver: z
          .enum(['bwrap', 'podman', 'gvisor', 'microvm'])
          .nullable()
          .meta({ description: 'The least isolation the node’s calls run with; the stronger of it and its agent’s sandbox.driver applies' }),
      }),
    ),
    edges: z.array(
      z.strictObject({
        id,
        from: z.string(),
        to: z.string(),
        purpose: z.string(),
        budget: edgeBudgetSchema,
        approval: approvalRuleSchema,
        data: dataRuleSchema,
      }),
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Graph' });
