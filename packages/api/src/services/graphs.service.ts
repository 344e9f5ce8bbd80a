import { SANDBOX_LEVEL_DRIVERS, type SandboxLevelDriver } from '@looplane/shared';
import {
  appendAudit,
  approvalRuleSchema,
  dataRuleSchema,
  edgeBudgetSchema,
  type ApprovalRule,
  type AuditActor,
  type DataRule,
  type Db,
  type EdgeBudget,
  type Prisma,
  type Tx,
} from '@looplane/db';
import type { WorkspaceSource } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import { sandboxSettingsSchema } from '../routers/agents.schema';
import type { CreateGraphInput, GraphDefinition, UpdateGraphInput } from '../routers/graphs.schema';
import { checkWorkspaceDefault, storedWorkspace } from './run-workspace';
import { assertSandboxesWithinPolicy } from './sandbox-limits-policy';

const versionInclude = { nodes: { orderBy: { key: 'asc' } }, edges: { orderBy: [{ fromKey: 'asc' }, { toKey: 'asc' }] } } satisfies Prisma.GraphVersionInclude;
type VersionRow = Prisma.GraphVersionGetPayload<{ include: typeof versionInclude }>;

export interface GraphView {
  id: string;
  name: string;
  description: string;
  version: number;
  currentVersion: number;
  root: string;
  nodes: {
    key: string;
    agentId: string;
    isolation: 'shared' | 'process';
    readPrefixes: string[];
    writePrefixes: string[];
    position: { x: number; y: number };
    /** The files a run starts from when it names none (the root node's counts); null: none. */
    workspace: WorkspaceSource | null;
    /** The least isolation the node's calls run with (the stronger of it and its agent's sandbox.driver); null: its agent's. */
    minimumDriver: SandboxLevelDriver | null;
  }[];
  edges: { id: string; from: string; to: string; purpose: string; budget: EdgeBudget; approval: ApprovalRule; data: DataRule }[];
  createdAt: Date;
  updatedAt: Date;
}

/** A stored level, or null for none (or a value this version does not know: the agent's own level then applies). */
function levelOf(value: string | null): SandboxLevelDriver | null {
  return (SANDBOX_LEVEL_DRIVERS as readonly string[]).includes(value ?? '') ? (value as SandboxLevelDriver) : null;
}

function positionOf(value: Prisma.JsonValue): { x: number; y: number } {
  const p = value as { x?: unknown; y?: unknown } | null;
  return { x: typeof p?.x === 'number' ? p.x : 0, y: typeof p?.y === 'number' ? p.y : 0 };
}

function viewOf(
  graph: { id: string; name: string; description: string; currentVersion: number; createdAt: Date; updatedAt: Date },
  version: VersionRow,
): GraphView {
  return {
    id: graph.id,
    name: graph.name,
    description: graph.description,
    version: version.version,
    currentVersion: graph.currentVersion,
    root: version.rootNodeKey,
    nodes: version.nodes.map((n) => ({
      key: n.key,
      agentId: n.agentId,
      isolation: n.isolation,
      readPrefixes: n.readPrefixes,
      writePrefixes: n.writePrefixes,
      position: positionOf(n.position),
      workspace: storedWorkspace(n.workspace),
      minimumDriver: levelOf(n.minimumDriver),
    })),
    // Stored rules were validated on the way in; a row edited by hand reads as the safest rule.
    edges: version.edges.map((e) => ({
      id: e.id,
      from: e.fromKey,
      to: e.toKey,
      purpose: e.purpose,
      budget: edgeBudgetSchema.safeParse(e.budget).data ?? { calls: 1, maxConcurrent: 1 },
      approval: approvalRuleSchema.safeParse(e.approvalRule).data ?? { mode: 'always' },
      data: dataRuleSchema.safeParse(e.dataRule).data ?? { maxBytesIn: 1, maxBytesOut: 1, redact: [] },
    })),
    createdAt: graph.createdAt,
    updatedAt: graph.updatedAt,
  };
}

/**
 * Every node's agent is a live template of the team, and its sandbox asks for no more than the
 * team policy's `sandbox.limits` maximums (a template saved before the policy was tightened).
 */
async function assertAgents(tx: Tx, teamId: string, definition: GraphDefinition): Promise<void> {
  const ids = [...new Set(definition.nodes.map((n) => n.agentId))];
  const found = await tx.agentTemplate.findMany({ where: { id: { in: ids }, teamId, archivedAt: null }, select: { id: true, name: true, sandbox: true } });
  const missing = ids.filter((id) => !found.some((a) => a.id === id));
  if (missing.length) {
    const nodes = definition.nodes.filter((n) => missing.includes(n.agentId)).map((n) => n.key);
    throw new AppError('NOT_FOUND', `No such agent in this team for node${nodes.length > 1 ? 's' : ''} ${nodes.join(', ')}`);
  }
  const templates = definition.nodes.flatMap((node) => {
    const agent = found.find((a) => a.id === node.agentId);
    // A stored sandbox that no longer parses is refused when a run starts (run-config.ts), not here.
    const sandbox = sandboxSettingsSchema.safeParse(agent?.sandbox);
    return agent && sandbox.success ? [{ sandbox: sandbox.data, where: `node ${node.key} (agent ${agent.name})` }] : [];
  });
  await assertSandboxesWithinPolicy(tx, teamId, templates);
}

/** Each node's workspace default passes the checks a run's source does (reads only, before the transaction). */
async function assertNodeWorkspaces(db: Db, teamId: string, definition: GraphDefinition): Promise<void> {
  for (const node of definition.nodes) {
    if (!node.workspace) continue;
    try {
      await checkWorkspaceDefault(db, teamId, node.workspace);
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, `node ${node.key}: ${error.message}`);
      throw error;
    }
  }
}

/** Writes one version's rows. */
async function writeVersion(tx: Tx, graphId: string, version: number, definition: GraphDefinition, createdById: string | null): Promise<void> {
  await tx.graphVersion.create({
    data: {
      graphId,
      version,
      rootNodeKey: definition.root,
      createdById,
      nodes: {
        create: definition.nodes.map((n) => ({
          key: n.key,
          agentId: n.agentId,
          isolation: n.isolation,
          readPrefixes: n.readPrefixes,
          writePrefixes: n.writePrefixes,
          position: n.position,
          ...(n.workspace ? { workspace: n.workspace as Prisma.InputJsonValue } : {}),
          ...(n.minimumDriver ? { minimumDriver: n.minimumDriver } : {}),
        })),
      },
      edges: {
        create: definition.edges.map((e) => ({
          fromKey: e.from,
          toKey: e.to,
          purpose: e.purpose,
          budget: e.budget,
          approvalRule: e.approval,
          dataRule: e.data as Prisma.InputJsonValue,
        })),
      },
    },
  });
}

const userOf = (actor: AuditActor) => ('userId' in actor ? actor.userId : null);
const summary = (d: GraphDefinition) => ({
  root: d.root,
  nodes: d.nodes.map((n) => `${n.key}:${n.isolation}`),
  edges: d.edges.map((e) => `${e.from}->${e.to}`),
});

/** A graph of the team at a version (default: its current one). */
export async function getGraph(db: Db | Tx, teamId: string, graphId: string, version?: number): Promise<GraphView> {
  const graph = await db.swarmGraph.findFirst({ where: { id: graphId, teamId } });
  if (!graph) throw new AppError('NOT_FOUND', 'No such graph in this team');
  const row = await db.graphVersion.findUnique({ where: { graphId_version: { graphId, version: version ?? graph.currentVersion } }, include: versionInclude });
  if (!row) throw new AppError('NOT_FOUND', `Graph ${graph.name} has no version ${version}`);
  return viewOf(graph, row);
}

/** The team's graphs (archived ones hidden), by name, each at its current version. */
export async function listGraphs(db: Db, teamId: string) {
  const graphs = await db.swarmGraph.findMany({ where: { teamId, archivedAt: null }, orderBy: { name: 'asc' }, take: 500 });
  const versions = await db.graphVersion.findMany({
    where: { OR: graphs.map((g) => ({ graphId: g.id, version: g.currentVersion })) },
    select: { graphId: true, rootNodeKey: true, _count: { select: { nodes: true, edges: true } } },
  });
  return graphs.map((g) => {
    const v = versions.find((x) => x.graphId === g.id);
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      currentVersion: g.currentVersion,
      updatedAt: g.updatedAt,
      root: v?.rootNodeKey ?? '',
      nodes: v?._count.nodes ?? 0,
      edges: v?._count.edges ?? 0,
    };
  });
}

/** Creates a graph at version 1 (name unique in the team, agents of the team) with a `graph.created` audit row. */
export async function createGraph(db: Db, actor: AuditActor, teamId: string, input: CreateGraphInput, ip: string | null): Promise<GraphView> {
  await assertNodeWorkspaces(db, teamId, input.definition);
  return db.$transaction(async (tx) => {
    await assertAgents(tx, teamId, input.definition);
    const taken = await tx.swarmGraph.findUnique({ where: { teamId_name: { teamId, name: input.name } }, select: { id: true } });
    if (taken) throw new AppError('CONFLICT', `A graph named "${input.name}" already exists in this team`);
    const graph = await tx.swarmGraph.create({ data: { teamId, name: input.name, description: input.description, currentVersion: 1 } });
    await writeVersion(tx, graph.id, 1, input.definition, userOf(actor));
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'graph.created',
      targetType: 'graph',
      targetId: graph.id,
      data: { name: graph.name, version: 1, ...summary(input.definition) },
    });
    return getGraph(tx, teamId, graph.id);
  });
}

/**
 * Every update is a new version (runs keep the version they started with, snapshotted on the
 * run). Compare-and-set on `currentVersion`: two concurrent edits cannot both win.
 */
export async function updateGraph(db: Db, actor: AuditActor, teamId: string, input: UpdateGraphInput, ip: string | null): Promise<GraphView> {
  return db.$transaction(async (tx) => {
    const graph = await tx.swarmGraph.findFirst({ where: { id: input.graphId, teamId }, select: { id: true, currentVersion: true, archivedAt: true } });
    if (!graph) throw new AppError('NOT_FOUND', 'No such graph in this team');
    if (graph.archivedAt) throw new AppError('PRECONDITION_FAILED', 'The graph is archived');
    if (input.expectedVersion !== undefined && input.expectedVersion !== graph.currentVersion) {
      throw new AppError('CONFLICT', `The graph was changed meanwhile (now version ${graph.currentVersion}); reload and try again`);
    }
    await assertAgents(tx, teamId, input.definition);
    await assertNodeWorkspaces(db, teamId, input.definition);
    const version = graph.currentVersion + 1;
    const { count } = await tx.swarmGraph.updateMany({
      where: { id: graph.id, currentVersion: graph.currentVersion },
      data: { currentVersion: version, ...(input.description !== undefined ? { description: input.description } : {}) },
    });
    if (count === 0) throw new AppError('CONFLICT', 'The graph was changed meanwhile; reload and try again');
    await writeVersion(tx, graph.id, version, input.definition, userOf(actor));
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'graph.updated',
      targetType: 'graph',
      targetId: graph.id,
      data: { version, ...summary(input.definition) },
    });
    return getGraph(tx, teamId, graph.id);
  });
}
