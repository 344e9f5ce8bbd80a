import { defineRoute, type RestRoute } from '../rest-route';
import { addMcpServerBody, mcpServer, mcpServerIdParams, mcpServerList, mcpServerRemoved } from '../schemas/admin.schemas';

const serverParams = { serverId: 'cmexampleid0000000000000' };

export const mcpServerRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/mcp-servers',
    operationId: 'listMcpServers',
    summary: 'List MCP servers',
    description: 'MCP servers the team’s agents may use; their tools appear in runs as `mcp:<server>:<tool>`.',
    tag: 'mcpServers',
    procedure: 'mcp.list',
    response: mcpServerList,
    responseDescription: 'The servers, by name',
    example: {},
    handle: ({ caller, teamId }) => caller.mcp.list({ teamId }),
  }),

  defineRoute({
    method: 'POST',
    path: '/mcp-servers',
    operationId: 'addMcpServer',
    summary: 'Add an MCP server',
    description:
      'A stdio program (run inside each run’s sandbox) or a streamable HTTP endpoint (reached through the egress proxy); a worker then lists its tools.',
    tag: 'mcpServers',
    procedure: 'mcp.add',
    body: addMcpServerBody,
    response: mcpServer,
    status: 201,
    responseDescription: 'The server was added',
    problems: [409, 422],
    example: { body: { name: 'files', transport: 'stdio', command: 'mcp-files', args: ['--root', '.'] } },
    handle: ({ caller, teamId, body }) => caller.mcp.add({ teamId, ...body }),
  }),

  defineRoute({
    method: 'POST',
    path: '/mcp-servers/{serverId}/refresh',
    operationId: 'refreshMcpServer',
    summary: 'List an MCP server’s tools again',
    tag: 'mcpServers',
    procedure: 'mcp.refresh',
    params: mcpServerIdParams,
    response: mcpServer,
    responseDescription: 'The server, waiting for a worker to list its tools',
    problems: [404],
    example: { params: serverParams },
    handle: ({ caller, teamId, params }) => caller.mcp.refresh({ teamId, serverId: params.serverId }),
  }),

  defineRoute({
    method: 'DELETE',
    path: '/mcp-servers/{serverId}',
    operationId: 'removeMcpServer',
    summary: 'Remove an MCP server',
    description: 'New runs no longer see its tools; calls of runs that loaded them fail.',
    tag: 'mcpServers',
    procedure: 'mcp.remove',
    params: mcpServerIdParams,
    response: mcpServerRemoved,
    responseDescription: 'The server was removed',
    problems: [404],
    example: { params: serverParams },
    handle: ({ caller, teamId, params }) => caller.mcp.remove({ teamId, serverId: params.serverId }),
  }),
];
