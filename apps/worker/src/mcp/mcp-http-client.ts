import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { egressFetch } from './egress-fetch';
import type { McpRequest } from './mcp-wire';

type HttpAnswer = { ok: true; tools: Tool[] } | { ok: true; result: CallToolResult } | { ok: false; error: string };

/**
 * One exchange with a streamable HTTP MCP server, through an egress proxy socket: connect
 * (initialize), one request, close. Nothing reaches the server but through the proxy.
 */
export async function exchangeHttp(url: string, socketPath: string, request: McpRequest, signal?: AbortSignal): Promise<HttpAnswer> {
  const client = new Client({ name: 'looplane', version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: egressFetch(socketPath) });
  try {
    await client.connect(transport, signal ? { signal } : {});
    if (request.method === 'tools/list') return { ok: true, tools: (await client.listTools(undefined, signal ? { signal } : {})).tools };
    const result = await client.callTool({ name: request.name, arguments: request.arguments }, undefined, signal ? { signal } : {});
    return { ok: true, result: result as CallToolResult };
  } catch (error) {
    signal?.throwIfAborted();
    return { ok: false, error: `the MCP server at ${new URL(url).host} could not be reached: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await client.close().catch(() => undefined);
  }
}
