import type { Db } from '@looplane/db';
import { toolSpecSchema, type ToolSpec } from '@looplane/engine';
import { z } from 'zod';

/** One tool of a server's manifest, as a worker recorded it from `tools/list`. */
const manifestToolSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.json()).optional(),
  annotations: z.object({ idempotentHint: z.boolean().optional(), readOnlyHint: z.boolean().optional() }).loose().optional(),
});

/** The catalogue name of an MCP tool: what agents call and what policies match. */
function mcpToolName(server: string, tool: string): string {
  return `mcp:${server}:${tool}`;
}

/**
 * The catalogue entries of the team's MCP servers (from the manifests workers recorded), added
 * to every new run's config. A tool whose name cannot be a catalogue name is left out rather than
 * failing the run; with on-demand loading the model sees only names and one-liners until it asks.
 */
export async function mcpToolSpecs(db: Db, teamId: string): Promise<ToolSpec[]> {
  const servers = await db.mcpServer.findMany({
    where: { teamId, toolsCheckedAt: { not: null } },
    select: { name: true, tools: true },
    orderBy: { name: 'asc' },
  });
  const specs: ToolSpec[] = [];
  for (const server of servers) {
    const tools = z.array(manifestToolSchema).safeParse(server.tools);
    if (!tools.success) continue;
    for (const tool of tools.data) {
      const spec = toolSpecSchema.safeParse({
        name: mcpToolName(server.name, tool.name),
        description: `[MCP ${server.name}] ${(tool.description ?? tool.name).slice(0, 1900)}`,
        parameters: tool.inputSchema ?? { type: 'object', properties: {} },
        // Only a server's own promise makes a re-run after a crash safe.
        idempotent: tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true,
      });
      if (spec.success) specs.push(spec.data);
    }
  }
  return specs;
}
