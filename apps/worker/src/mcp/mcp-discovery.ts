import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, Prisma } from '@looplane/db';
import { startEgressProxy } from '@looplane/sandbox';
import type { Logger } from 'pino';
import type { WorkerSandbox } from '../sandbox/worker-sandbox';
import { describeExec, execMcp } from './mcp-exec';
import { exchangeHttp } from './mcp-http-client';
import { parseToolList } from './mcp-wire';

const argsSchemaSafe = (value: unknown): string[] => (Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : []);

/**
 * Lists the tools of newly registered MCP servers (rows whose `toolsCheckedAt` is null) and
 * records them on the row, where new runs read their catalogue from. A stdio server is listed in a
 * scratch workspace of its own inside the sandbox, without network; an HTTP server through an
 * egress proxy that lets only its own host:port through (private addresses refused by name).
 */
export class McpDiscovery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: { db: Db; sandbox: WorkerSandbox; logger: Logger }) {}

  /** Lists every server that waits for it; resolves when done. */
  async once(): Promise<number> {
    const pending = await this.deps.db.mcpServer.findMany({ where: { toolsCheckedAt: null }, orderBy: { createdAt: 'asc' }, take: 20 });
    for (const server of pending) await this.list(server);
    return pending.length;
  }

  /** Polls for new servers every `intervalMs` until {@link stop}. */
  start(intervalMs: number): void {
    const tick = () => {
      this.running = this.once()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'MCP discovery failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = null;
    if (timer) clearTimeout(timer);
    await this.running;
  }

  private async list(server: {
    id: string;
    name: string;
    transport: string;
    command: string | null;
    args: Prisma.JsonValue;
    url: string | null;
  }): Promise<void> {
    const { sandbox, db, logger } = this.deps;
    let tools: unknown[] = [];
    let error: string | null = null;
    if (server.transport === 'http' && server.url) ({ tools, error } = await this.listHttp(server.url));
    else if (!server.command) error = 'the server has no command';
    else if (sandbox.unavailable) error = `sandbox unavailable: ${sandbox.unavailable}`;
    else {
      const scratch = `mcp-list-${server.id}`;
      try {
        const workspace = await sandbox.workspaces.create(scratch);
        const result = await execMcp(
          sandbox.driver,
          workspace,
          { name: server.name, command: server.command, args: argsSchemaSafe(server.args) },
          { method: 'tools/list' },
        );
        const parsed = parseToolList(result.stdout);
        if (parsed.ok) tools = parsed.tools;
        else error = `${parsed.error}; ${describeExec(result)}`;
      } finally {
        await sandbox.workspaces.remove(scratch).catch(() => undefined);
      }
    }
    await db.mcpServer.updateMany({
      where: { id: server.id, toolsCheckedAt: null },
      data: { tools: tools as Prisma.InputJsonValue, toolsCheckedAt: new Date(), toolsError: error },
    });
    logger.info({ server: server.name, serverId: server.id, tools: tools.length, error }, 'MCP server listed');
  }

  /** Lists an HTTP server through an egress proxy of its own that lets only the server's host:port through. */
  private async listHttp(url: string): Promise<{ tools: unknown[]; error: string | null }> {
    const target = new URL(url);
    const port = target.port || (target.protocol === 'https:' ? '443' : '80');
    const dir = await mkdtemp(join(tmpdir(), 'looplane-mcp-list-'));
    const proxy = await startEgressProxy({ socketPath: join(dir, 'egress.sock'), policy: { allow: [`${target.hostname}:${port}`] } });
    try {
      const answer = await exchangeHttp(url, proxy.socketPath, { method: 'tools/list' });
      if (!answer.ok) return { tools: [], error: answer.error };
      return 'tools' in answer ? { tools: answer.tools, error: null } : { tools: [], error: 'the MCP server answered a listing with a tool result' };
    } finally {
      await proxy.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }
}
