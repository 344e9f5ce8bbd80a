import { appendAudit, Prisma, type AuditActor, type Db, type Tx } from '@looplane/db';
import { slashCommandsSchema, sourceKindOf, type SlashCommand, type ToolSpec, type WorkspaceSource } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import {
  agentSkillsSchema,
  agentToolsSchema,
  busyPolicySchema,
  sandboxSettingsSchema,
  type BusyPolicy,
  type CreateAgentInput,
  type SandboxSettings,
  type UpdateAgentInput,
} from '../routers/agents.schema';
import { checkWorkspaceDefault, storedWorkspace } from './run-workspace';
import { assertSandboxesWithinPolicy } from './sandbox-limits-policy';
import { requireSkills } from './skills.service';

const agentInclude = { endpoint: { select: { id: true, name: true, kind: true, model: true, deletedAt: true } } } as const;
type AgentRow = Prisma.AgentTemplateGetPayload<{ include: typeof agentInclude }>;

export interface AgentView {
  id: string;
  name: string;
  description: string;
  endpoint: { id: string; name: string; kind: 'openai' | 'faux'; model: string; deleted: boolean };
  systemPrompt: string;
  tools: ToolSpec[];
  sandbox: SandboxSettings;
  slashCommands: SlashCommand[];
  busyPolicy: BusyPolicy;
  maxConcurrentRuns: number | null;
  /** The files its runs start from unless a run names its own; null: an empty workspace. */
  workspace: WorkspaceSource | null;
  /** Names of the team skills its runs may load. */
  skills: string[];
  /** Its runs never finish on a final answer: each waits (free) for the next message. */
  persistent: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

// Stored JSON was validated on the way in; a row edited by hand degrades to "nothing" instead of a 500.
function parsedOr<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, value: unknown, fallback: T): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

function viewOf(row: AgentRow): AgentView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    endpoint: { id: row.endpoint.id, name: row.endpoint.name, kind: row.endpoint.kind, model: row.endpoint.model, deleted: row.endpoint.deletedAt !== null },
    systemPrompt: row.systemPrompt,
    tools: parsedOr(agentToolsSchema, row.tools, []),
    sandbox: parsedOr(sandboxSettingsSchema, row.sandbox, {}),
    slashCommands: parsedOr(slashCommandsSchema, row.slashCommands, []),
    busyPolicy: parsedOr(busyPolicySchema, row.busyPolicy, 'enqueue'),
    maxConcurrentRuns: row.maxConcurrentRuns,
    workspace: storedWorkspace(row.workspace),
    skills: parsedOr(agentSkillsSchema, row.skills, []),
    persistent: row.persistent,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The skills an agent's slash commands load before their goal. */
function commandSkills(commands: readonly SlashCommand[]): string[] {
  return commands.flatMap((c) => (c.skill ? [c.skill] : []));
}

async function assertEndpoint(tx: Tx, teamId: string, endpointId: string): Promise<void> {
  const endpoint = await tx.modelEndpoint.findFirst({ where: { id: endpointId, teamId, deletedAt: null }, select: { id: true } });
  if (!endpoint) throw new AppError('NOT_FOUND', 'No such model endpoint in this team');
}

async function assertNameFree(tx: Tx, teamId: string, name: string, exceptId?: string): Promise<void> {
  const taken = await tx.agentTemplate.findUnique({ where: { teamId_name: { teamId, name } }, select: { id: true } });
  if (taken && taken.id !== exceptId) throw new AppError('CONFLICT', `An agent named "${name}" already exists in this team`);
}

/** Agent templates of a team (archived ones hidden), by name. */
export async function listAgents(db: Db, teamId: string): Promise<AgentView[]> {
  const rows = await db.agentTemplate.findMany({ where: { teamId, archivedAt: null }, include: agentInclude, orderBy: { name: 'asc' }, take: 500 });
  return rows.map(viewOf);
}

/** One template of the team (archived ones too: old runs still link to them). */
export async function getAgent(db: Db | Tx, teamId: string, agentId: string): Promise<AgentView> {
  const row = await db.agentTemplate.findFirst({ where: { id: agentId, teamId }, include: agentInclude });
  if (!row) throw new AppError('NOT_FOUND', 'No such agent in this team');
  return viewOf(row);
}

/** The endpoints an agent may be put on (for the template form). */
export async function listEndpointOptions(db: Db, teamId: string) {
  return db.modelEndpoint.findMany({
    where: { teamId, deletedAt: null },
    select: { id: true, name: true, kind: true, model: true, contextWindow: true, maxOutputTokens: true },
    orderBy: { name: 'asc' },
  });
}

/** Creates a template (name unique in the team, endpoint of the team) with an `agent.created` audit row. */
export async function createAgent(
  db: Db,
  actor: AuditActor & { userId: string },
  teamId: string,
  input: CreateAgentInput,
  ip: string | null,
): Promise<AgentView> {
  // Read-only checks against the policy, secrets, uploads and sessions, before the transaction.
  if (input.workspace) await checkWorkspaceDefault(db, teamId, input.workspace);
  await requireSkills(db, teamId, [...new Set([...input.skills, ...commandSkills(input.slashCommands)])]);
  return db.$transaction(async (tx) => {
    await assertEndpoint(tx, teamId, input.endpointId);
    await assertNameFree(tx, teamId, input.name);
    await assertSandboxesWithinPolicy(tx, teamId, [{ sandbox: input.sandbox }]);
    const row = await tx.agentTemplate.create({
      data: {
        teamId,
        name: input.name,
        description: input.description,
        endpointId: input.endpointId,
        systemPrompt: input.systemPrompt,
        tools: input.tools as Prisma.InputJsonValue,
        sandbox: input.sandbox as Prisma.InputJsonValue,
        slashCommands: input.slashCommands as Prisma.InputJsonValue,
        busyPolicy: input.busyPolicy,
        maxConcurrentRuns: input.maxConcurrentRuns,
        ...(input.workspace ? { workspace: input.workspace as Prisma.InputJsonValue } : {}),
        skills: input.skills,
        persistent: input.persistent,
        createdById: actor.userId,
      },
      include: agentInclude,
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'agent.created',
      targetType: 'agent',
      targetId: row.id,
      data: {
        name: row.name,
        endpointId: row.endpointId,
        tools: input.tools.map((t) => t.name),
        busyPolicy: row.busyPolicy,
        ...(input.workspace ? { workspace: sourceKindOf(input.workspace) } : {}),
        ...(input.skills.length > 0 ? { skills: input.skills } : {}),
        ...(input.persistent ? { persistent: true } : {}),
      },
    });
    return viewOf(row);
  });
}

const EDITABLE = [
  'name',
  'description',
  'endpointId',
  'systemPrompt',
  'tools',
  'sandbox',
  'slashCommands',
  'busyPolicy',
  'maxConcurrentRuns',
  'workspace',
  'skills',
  'persistent',
] as const;
type Editable = (typeof EDITABLE)[number];

/**
 * Applies a partial update and bumps the version. Runs already started keep the config they were
 * created with (it is snapshotted on their session), so an edit never changes a running agent.
 */
export async function updateAgent(db: Db, actor: AuditActor, teamId: string, input: UpdateAgentInput, ip: string | null): Promise<AgentView> {
  const { agentId, expectedVersion } = input;
  const patch = Object.fromEntries(EDITABLE.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<
    Pick<UpdateAgentInput, Editable>
  >;
  return db.$transaction(async (tx) => {
    const current = await tx.agentTemplate.findFirst({ where: { id: agentId, teamId }, select: { id: true, version: true } });
    if (!current) throw new AppError('NOT_FOUND', 'No such agent in this team');
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new AppError('CONFLICT', `The agent was changed meanwhile (now version ${current.version}); reload and try again`);
    }
    if (patch.endpointId !== undefined) await assertEndpoint(tx, teamId, patch.endpointId);
    if (patch.name !== undefined) await assertNameFree(tx, teamId, patch.name, agentId);
    if (patch.sandbox !== undefined) await assertSandboxesWithinPolicy(tx, teamId, [{ sandbox: patch.sandbox }]);
    // Reads only (policy, secrets, uploads, sessions), so the outer client may do them.
    if (patch.workspace) await checkWorkspaceDefault(db, teamId, patch.workspace);
    if (patch.skills !== undefined) await requireSkills(db, teamId, patch.skills);
    if (patch.slashCommands !== undefined) await requireSkills(db, teamId, [...new Set(commandSkills(patch.slashCommands))]);
    const changed = Object.keys(patch);
    if (changed.length === 0) return getAgent(tx, teamId, agentId);
    // Compare-and-set on the version: two concurrent edits cannot both win.
    const { count } = await tx.agentTemplate.updateMany({
      where: { id: agentId, version: current.version },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.endpointId !== undefined ? { endpointId: patch.endpointId } : {}),
        ...(patch.systemPrompt !== undefined ? { systemPrompt: patch.systemPrompt } : {}),
        ...(patch.tools !== undefined ? { tools: patch.tools as Prisma.InputJsonValue } : {}),
        ...(patch.sandbox !== undefined ? { sandbox: patch.sandbox as Prisma.InputJsonValue } : {}),
        ...(patch.slashCommands !== undefined ? { slashCommands: patch.slashCommands as Prisma.InputJsonValue } : {}),
        ...(patch.busyPolicy !== undefined ? { busyPolicy: patch.busyPolicy } : {}),
        ...(patch.maxConcurrentRuns !== undefined ? { maxConcurrentRuns: patch.maxConcurrentRuns } : {}),
        // null clears the default (the column's SQL NULL, not a JSON null).
        ...(patch.workspace !== undefined ? { workspace: patch.workspace === null ? Prisma.DbNull : (patch.workspace as Prisma.InputJsonValue) } : {}),
        ...(patch.skills !== undefined ? { skills: patch.skills } : {}),
        ...(patch.persistent !== undefined ? { persistent: patch.persistent } : {}),
        version: { increment: 1 },
      },
    });
    if (count === 0) throw new AppError('CONFLICT', 'The agent was changed meanwhile; reload and try again');
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'agent.updated',
      targetType: 'agent',
      targetId: agentId,
      data: { changed, version: current.version + 1 },
    });
    return getAgent(tx, teamId, agentId);
  });
}
