import { appendAudit, type AuditActor, type Db } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { AddMcpServerInput } from '../routers/mcp.schema';

type Actor = AuditActor & { userId: string };

const columns = {
  id: true,
  name: true,
  transport: true,
  command: true,
  args: true,
  url: true,
  tools: true,
  toolsCheckedAt: true,
  toolsError: true,
  createdAt: true,
} as const;

/** One registered MCP server as the API shows it. */
export interface McpServerView {
  id: string;
  name: string;
  transport: 'stdio' | 'http';
  command: string | null;
  args: string[];
  url: string | null;
  /** Names of the tools a worker listed (`mcp:<name>:<tool>` in runs); empty until listed. */
  tools: string[];
  /** When a worker listed them; null: waiting for a worker. */
  toolsCheckedAt: Date | null;
  /** Why listing failed, if it did. */
  toolsError: string | null;
  createdAt: Date;
}

type Row = {
  id: string;
  name: string;
  transport: string;
  command: string | null;
  args: unknown;
  url: string | null;
  tools: unknown;
  toolsCheckedAt: Date | null;
  toolsError: string | null;
  createdAt: Date;
};

function view(row: Row): McpServerView {
  const tools = Array.isArray(row.tools) ? row.tools : [];
  return {
    ...row,
    transport: row.transport === 'http' ? 'http' : 'stdio',
    args: Array.isArray(row.args) ? row.args.filter((a): a is string => typeof a === 'string') : [],
    tools: tools
      .map((t: unknown) => (t && typeof t === 'object' && 'name' in t && typeof t.name === 'string' ? t.name : null))
      .filter((n): n is string => n !== null),
  };
}

/** The team's MCP servers, by name. */
export async function listMcpServers(db: Db, teamId: string): Promise<McpServerView[]> {
  const rows = await db.mcpServer.findMany({ where: { teamId }, select: columns, orderBy: { name: 'asc' } });
  return rows.map(view);
}

/** Registers a server (admin); the audit row keeps the whole definition. A taken name is CONFLICT. */
export async function addMcpServer(db: Db, actor: Actor, teamId: string, input: AddMcpServerInput, ip: string | null): Promise<McpServerView> {
  return db.$transaction(async (tx) => {
    const taken = await tx.mcpServer.findUnique({ where: { teamId_name: { teamId, name: input.name } }, select: { id: true } });
    if (taken) throw new AppError('CONFLICT', `An MCP server named ${input.name} already exists in this team`);
    const definition =
      input.transport === 'stdio' ? { command: input.command ?? null, args: input.args ?? [], url: null } : { command: null, args: [], url: input.url ?? null };
    const row = await tx.mcpServer.create({
      data: { teamId, name: input.name, transport: input.transport, ...definition, createdById: actor.userId },
      select: columns,
    });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'mcp_server.added',
      targetType: 'mcp_server',
      targetId: row.id,
      data: { name: input.name, transport: input.transport, ...definition },
    });
    return view(row);
  });
}

/** Removes a server (admin); runs that already loaded its tools keep their catalogue but new calls fail. */
export async function removeMcpServer(db: Db, actor: Actor, teamId: string, serverId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const row = await tx.mcpServer.findFirst({ where: { id: serverId, teamId }, select: columns });
    if (!row) throw new AppError('NOT_FOUND', 'No such MCP server in this team');
    await tx.mcpServer.delete({ where: { id: serverId } });
    await appendAudit(tx, { teamId, actor, ip, action: 'mcp_server.removed', targetType: 'mcp_server', targetId: serverId, data: { name: row.name } });
    return { id: serverId, removed: true as const };
  });
}

/** Asks the workers to list a server's tools again (after its program changed, or a failed listing). */
export async function refreshMcpServer(db: Db, actor: Actor, teamId: string, serverId: string, ip: string | null): Promise<McpServerView> {
  return db.$transaction(async (tx) => {
    const row = await tx.mcpServer.findFirst({ where: { id: serverId, teamId }, select: { id: true, name: true } });
    if (!row) throw new AppError('NOT_FOUND', 'No such MCP server in this team');
    const updated = await tx.mcpServer.update({ where: { id: serverId }, data: { toolsCheckedAt: null, toolsError: null }, select: columns });
    await appendAudit(tx, { teamId, actor, ip, action: 'mcp_server.refreshed', targetType: 'mcp_server', targetId: serverId, data: { name: row.name } });
    return view(updated);
  });
}
