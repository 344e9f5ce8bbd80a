import { randomUUID } from 'node:crypto';
import { parseRunConfig, type RunConfigInput } from '@looplane/engine';
import type { Db } from '../../client';
import type { Prisma } from '../../generated/prisma/client';
import type { TestAgent } from '../../runs/testing/run-fixtures';
import { memoryToolSpecs } from '../memory-tools';
import { approvalRuleSchema, dataRuleSchema, edgeBudgetSchema, type ApprovalRule, type DataRule, type EdgeBudget } from '../swarm-rules';
import type { SwarmSnapshot } from '../swarm-snapshot';

export interface TestGraphNode {
  key: string;
  agent: TestAgent;
  isolation?: 'shared' | 'process';
  read?: string[];
  write?: string[];
  /** Merged into the node's run config. */
  config?: Partial<RunConfigInput>;
}

export interface TestGraphEdge {
  from: string;
  to: string;
  purpose?: string;
  budget?: EdgeBudget;
  approval?: ApprovalRule;
  data?: Partial<DataRule>;
}

export interface TestGraphRunOptions {
  root: string;
  nodes: TestGraphNode[];
  edges: TestGraphEdge[];
  goal?: string;
  budget?: { tokens?: number; costMicros?: number; toolCalls?: number; onExceed?: 'wait' | 'fail' };
}

/**
 * A queued run of a swarm graph with the rows `runs.create({ graphId })` writes: the graph and its
 * version (nodes, edges), the run with its snapshot, the root session, the run ledger and one
 * ledger per edge. Returns the edge ids by `from->to`.
 */
export async function createTestGraphRun(
  db: Db,
  options: TestGraphRunOptions,
): Promise<{ runId: string; sessionId: string; graphId: string; edges: Record<string, string> }> {
  const teamId = options.nodes[0]!.agent.teamId;
  const budget = { onExceed: 'wait' as const, ...options.budget };
  return db.$transaction(async (tx) => {
    const graph = await tx.swarmGraph.create({ data: { teamId, name: `graph-${randomUUID().slice(0, 8)}` } });
    const version = await tx.graphVersion.create({ data: { graphId: graph.id, version: 1, rootNodeKey: options.root } });
    const ruled = options.edges.map((e) => ({
      ...e,
      purpose: e.purpose ?? `${e.from} asks ${e.to}`,
      rules: {
        budget: edgeBudgetSchema.parse(e.budget ?? {}),
        approval: approvalRuleSchema.parse(e.approval ?? { mode: 'never' }),
        data: dataRuleSchema.parse(e.data ?? {}),
      },
    }));
    const rows = await tx.graphEdge.createManyAndReturn({
      data: ruled.map((e) => ({
        graphVersionId: version.id,
        fromKey: e.from,
        toKey: e.to,
        purpose: e.purpose,
        budget: e.rules.budget,
        approvalRule: e.rules.approval,
        dataRule: e.rules.data as Prisma.InputJsonValue,
      })),
      select: { id: true, fromKey: true, toKey: true },
    });
    const edges: SwarmSnapshot['edges'] = ruled.map((e) => ({
      id: rows.find((r) => r.fromKey === e.from && r.toKey === e.to)!.id,
      from: e.from,
      to: e.to,
      purpose: e.purpose,
      ...e.rules,
    }));
    await tx.graphNode.createMany({
      data: options.nodes.map((n) => ({
        graphVersionId: version.id,
        key: n.key,
        agentId: n.agent.agentId,
        isolation: n.isolation ?? 'shared',
        readPrefixes: n.read ?? [],
        writePrefixes: n.write ?? [],
      })),
    });
    const nodes: SwarmSnapshot['nodes'] = [];
    for (const n of options.nodes) {
      const memory = memoryToolSpecs({ read: (n.read ?? []).length > 0, write: (n.write ?? []).length > 0 });
      const config = parseRunConfig({
        toolLoading: 'eager',
        ...n.config,
        tools: [...(n.config?.tools ?? []), ...memory],
        model: n.agent.limits,
        compaction: { summarizer: 'deterministic' },
        onBudgetExceeded: budget.onExceed,
        delegates: edges.filter((e) => e.from === n.key).map((e) => ({ to: e.to, description: e.purpose })),
      });
      nodes.push({
        key: n.key,
        agentId: n.agent.agentId,
        endpointId: n.agent.endpointId,
        title: n.key,
        isolation: n.isolation ?? 'shared',
        readPrefixes: n.read ?? [],
        writePrefixes: n.write ?? [],
        config: config as unknown as SwarmSnapshot['nodes'][number]['config'],
      });
    }
    const swarm: SwarmSnapshot = { graphId: graph.id, version: 1, root: options.root, nodes, edges };
    const root = nodes.find((n) => n.key === options.root)!;
    const run = await tx.run.create({
      data: {
        teamId,
        agentId: root.agentId,
        graphId: graph.id,
        graphVersion: 1,
        swarm: swarm as unknown as Prisma.InputJsonValue,
        goal: options.goal ?? 'Do the task.',
        status: 'queued',
        budget: budget as Prisma.InputJsonValue,
      },
    });
    const session = await tx.session.create({
      data: {
        runId: run.id,
        agentId: root.agentId,
        endpointId: root.endpointId,
        nodeKey: root.key,
        status: 'idle',
        config: root.config as Prisma.InputJsonValue,
        title: root.title,
      },
    });
    await tx.run.update({ where: { id: run.id }, data: { rootSessionId: session.id, mainSessionId: session.id } });
    await tx.budgetLedger.createMany({
      data: [
        {
          runId: run.id,
          scope: 'run',
          scopeId: '',
          limitTokens: budget.tokens ?? null,
          limitCostMicros: budget.costMicros ?? null,
          limitCalls: budget.toolCalls ?? null,
        },
        ...edges.map((e) => ({
          runId: run.id,
          scope: 'edge' as const,
          scopeId: e.id,
          limitTokens: e.budget.tokens ?? null,
          limitCostMicros: e.budget.costMicros ?? null,
          limitCalls: e.budget.calls ?? null,
          limitConcurrent: e.budget.maxConcurrent ?? null,
        })),
      ],
    });
    return { runId: run.id, sessionId: session.id, graphId: graph.id, edges: Object.fromEntries(edges.map((e) => [`${e.from}->${e.to}`, e.id])) };
  });
}
