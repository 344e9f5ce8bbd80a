import { isolationRank, SANDBOX_LEVEL_DRIVERS } from '@looplane/shared';
import {
  appendAudit,
  approvalRuleSchema,
  dataRuleSchema,
  edgeBudgetSchema,
  memoryToolSpecs,
  type Prisma,
  type Db,
  type SwarmSnapshot,
  type Tx,
} from '@looplane/db';
import { parseRunConfig, sourceKindOf, type StoredWorkspace, type ToolSpec } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { CreateRunInput, RunBudget } from '../routers/runs.schema';
import type { PrincipalActor } from '../trpc';
import { newId } from '@looplane/db';
import { originAuditData, type RunOrigin } from './run-create';
import { buildRunConfig, resolveGoal } from './run-config';
import { mcpToolSpecs } from '../mcp/mcp-catalog';
import { assertEndpointsAllowed } from './policy-gates';
import { admitRunStart } from './run-start-limits';
import { runLimitsOf, type RunDeps } from './runs.service';
import { resolveWorkspaceSource, storedWorkspace } from './run-workspace';

const graphInclude = {
  nodes: { include: { agent: { include: { endpoint: true } } } },
  edges: true,
} as const;
type VersionRow = Prisma.GraphVersionGetPayload<{ include: typeof graphInclude }>;

/** A node's minimum isolation over its agent's: the stronger of the two is the sessions' `sandbox.driver`. */
function withNodeLevel<T extends { sandbox?: { driver?: string | undefined } | undefined }>(config: T, minimum: string | null): T {
  if (!minimum || !(SANDBOX_LEVEL_DRIVERS as readonly string[]).includes(minimum)) return config;
  const driver = config.sandbox?.driver;
  const stronger = driver && driver !== 'dangerous-none' && isolationRank(driver) >= isolationRank(minimum) ? driver : minimum;
  return { ...config, sandbox: { network: 'none', egressHosts: [], limits: {}, ...config.sandbox, driver: stronger } };
}

/**
 * Each node's run config: its agent's (prompt, tools, model, sandbox), plus a `delegate` target
 * per outgoing edge (described by the edge's purpose) and the blackboard tools its prefixes allow.
 */
function snapshotOf(graphId: string, version: VersionRow, budget: RunBudget, mcpTools: readonly ToolSpec[]): SwarmSnapshot {
  const edges = version.edges.map((e) => ({
    id: e.id,
    from: e.fromKey,
    to: e.toKey,
    purpose: e.purpose,
    budget: edgeBudgetSchema.parse(e.budget),
    approval: approvalRuleSchema.parse(e.approvalRule),
    data: dataRuleSchema.parse(e.dataRule),
  }));
  const nodes = version.nodes.map((n) => {
    if (n.agent.archivedAt) throw new AppError('PRECONDITION_FAILED', `The agent ${n.agent.name} of node ${n.key} is archived; update the graph first`);
    if (n.agent.endpoint.deletedAt) throw new AppError('PRECONDITION_FAILED', `The model endpoint of agent ${n.agent.name} (node ${n.key}) was deleted`);
    const base = withNodeLevel(buildRunConfig(n.agent, budget, mcpTools), n.minimumDriver);
    const memory = memoryToolSpecs({ read: n.readPrefixes.length > 0, write: n.writePrefixes.length > 0 });
    const config = parseRunConfig({
      ...base,
      tools: [...base.tools.filter((t) => !memory.some((m) => m.name === t.name)), ...memory],
      delegates: edges.filter((e) => e.from === n.key).map((e) => ({ to: e.to, description: e.purpose })),
    });
    return {
      key: n.key,
      agentId: n.agentId,
      endpointId: n.agent.endpointId,
      title: `${n.key} (${n.agent.name})`,
      isolation: n.isolation,
      readPrefixes: n.readPrefixes,
      writePrefixes: n.writePrefixes,
      config: config as unknown as SwarmSnapshot['nodes'][number]['config'],
    };
  });
  return { graphId, version: version.version, root: version.rootNodeKey, nodes, edges };
}

async function insertRun(
  tx: Tx,
  ids: { runId: string; sessionId: string; origin?: RunOrigin | undefined },
  teamId: string,
  actor: PrincipalActor,
  goal: string,
  budget: RunBudget,
  swarm: SwarmSnapshot,
  busyPolicy: string,
  workspace: StoredWorkspace | null,
) {
  const root = swarm.nodes.find((n) => n.key === swarm.root);
  if (!root) throw new AppError('INTERNAL', `graph ${swarm.graphId} has no root node ${swarm.root}`);
  await tx.run.create({
    data: {
      id: ids.runId,
      teamId,
      agentId: root.agentId,
      graphId: swarm.graphId,
      graphVersion: swarm.version,
      swarm: swarm as unknown as Prisma.InputJsonValue,
      goal,
      status: 'queued',
      createdById: actor.userId,
      createdByTokenId: actor.type === 'token' ? actor.tokenId : null,
      busyPolicy,
      budget: budget as Prisma.InputJsonValue,
      ...(workspace ? { workspace: workspace as Prisma.InputJsonValue } : {}),
      rootSessionId: ids.sessionId,
      mainSessionId: ids.sessionId,
      ...(ids.origin && 'scheduleId' in ids.origin ? { scheduleId: ids.origin.scheduleId, scheduledAt: ids.origin.scheduledAt } : {}),
      ...(ids.origin && 'triggerId' in ids.origin ? { triggerId: ids.origin.triggerId } : {}),
    },
  });
  await tx.session.create({
    data: {
      id: ids.sessionId,
      runId: ids.runId,
      agentId: root.agentId,
      endpointId: root.endpointId,
      nodeKey: root.key,
      status: 'idle',
      config: root.config as Prisma.InputJsonValue,
      title: root.title,
      createdById: actor.userId,
    },
  });
  await tx.budgetLedger.createMany({
    data: [
      {
        runId: ids.runId,
        scope: 'run',
        scopeId: '',
        limitTokens: budget.tokens ?? null,
        limitCostMicros: budget.costMicros ?? null,
        limitCalls: budget.toolCalls ?? null,
      },
      ...swarm.edges.map((e) => ({
        runId: ids.runId,
        scope: 'edge' as const,
        scopeId: e.id,
        limitTokens: e.budget.tokens ?? null,
        limitCostMicros: e.budget.costMicros ?? null,
        limitCalls: e.budget.calls ?? null,
        limitConcurrent: e.budget.maxConcurrent ?? null,
      })),
    ],
  });
}

/**
 * Starts a run of a swarm graph at its current version: the run (queued, with the graph
 * snapshotted on it: every node's config built now, so later edits never change it), its root
 * session (the root node, with the goal), the run ledger and one ledger per edge, and the
 * `run.created` audit row commit together; then the root session is enqueued. Children are
 * created by the worker when the root delegates.
 */
export async function createGraphRun(
  deps: RunDeps,
  actor: PrincipalActor,
  teamId: string,
  input: CreateRunInput,
  ip: string | null,
  origin?: RunOrigin,
): Promise<{ runId: string }> {
  const graphId = input.graphId;
  if (!graphId) throw new AppError('BAD_REQUEST', 'give the graph to run (graphId)');
  const db: Db = deps.db;
  const ids = { runId: newId(), sessionId: newId(), origin };
  // Every node sees the team's MCP tools, like a single-agent run (read before the transaction).
  const mcpTools = await mcpToolSpecs(db, teamId);
  await db.$transaction(async (tx) => {
    const graph = await tx.swarmGraph.findFirst({ where: { id: graphId, teamId, archivedAt: null } });
    if (!graph) throw new AppError('NOT_FOUND', 'No such graph in this team');
    const version = await tx.graphVersion.findUniqueOrThrow({ where: { graphId_version: { graphId, version: graph.currentVersion } }, include: graphInclude });
    const rootNode = version.nodes.find((n) => n.key === version.rootNodeKey);
    if (!rootNode) throw new AppError('INTERNAL', `graph ${graph.name} has no root node`);
    const rootAgent = rootNode.agent;
    await assertEndpointsAllowed(
      db,
      teamId,
      version.nodes.map((n) => ({ agentName: n.agent.name, endpointName: n.agent.endpoint.name, node: n.key })),
    );
    const { goal, command } = resolveGoal(rootAgent, input.goal);
    const budget: RunBudget = input.budget ?? { onExceed: 'wait' };
    const swarm = snapshotOf(graph.id, version, budget, mcpTools);
    // The root session's files: the run's own, else the root node's default, else its agent's.
    // Checked (and an upload claimed) through the outer client, as for a single-agent run.
    const source = input.workspace ?? storedWorkspace(rootNode.workspace) ?? storedWorkspace(rootAgent.workspace);
    const workspace = source ? await resolveWorkspaceSource(db, teamId, source) : null;
    // Before the first write, so the team's chain lock is the first lock this transaction takes.
    await admitRunStart(tx, { teamId, newRun: true, limits: runLimitsOf(deps) });
    await insertRun(tx, ids, teamId, actor, goal, budget, swarm, rootAgent.busyPolicy, workspace);
    await appendAudit(tx, {
      teamId,
      actor: origin?.auditActor ?? actor,
      ip,
      action: 'run.created',
      targetType: 'run',
      targetId: ids.runId,
      data: {
        graphId: graph.id,
        graphVersion: graph.currentVersion,
        // The template version each node's config was built from: four-eyes counts its authors (instruction-givers.ts).
        agentVersions: Object.fromEntries(version.nodes.map((n) => [n.agentId, n.agent.version])),
        root: swarm.root,
        sessionId: ids.sessionId,
        command: command?.name ?? null,
        budget,
        ...(workspace ? { workspace: sourceKindOf(workspace) } : {}),
        ...(origin ? originAuditData(origin) : {}),
      },
    });
  });
  await deps.dispatch.enqueueSession({ runId: ids.runId, sessionId: ids.sessionId, reason: 'start' });
  await deps.dispatch.teamActivity(teamId, { kind: 'run.status', runId: ids.runId, status: 'queued' });
  return { runId: ids.runId };
}
