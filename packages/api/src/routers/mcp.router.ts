import { createRouter, teamProcedure } from '../trpc';
import { addMcpServer, listMcpServers, refreshMcpServer, removeMcpServer } from '../mcp/mcp-servers.service';
import { addMcpServerInput, mcpServerRefInput } from './mcp.schema';

/**
 * MCP servers the team's agents may use (their tools appear as `mcp:<server>:<tool>`). Admins
 * register and remove them; anyone in the team may see which exist.
 */
export const mcpRouter = createRouter({
  list: teamProcedure('viewer').query(({ ctx }) => listMcpServers(ctx.db, ctx.teamId)),

  add: teamProcedure('admin')
    .input(addMcpServerInput)
    .mutation(({ ctx, input }) => addMcpServer(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  /** Has the workers list the server's tools again (new runs then see the new list). */
  refresh: teamProcedure('admin')
    .input(mcpServerRefInput)
    .mutation(({ ctx, input }) => refreshMcpServer(ctx.db, ctx.actor, ctx.teamId, input.serverId, ctx.ip)),

  remove: teamProcedure('admin')
    .input(mcpServerRefInput)
    .mutation(({ ctx, input }) => removeMcpServer(ctx.db, ctx.actor, ctx.teamId, input.serverId, ctx.ip)),
});
