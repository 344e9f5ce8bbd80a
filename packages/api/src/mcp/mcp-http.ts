import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiDeps } from '../context';
import { createTrpcContext } from '../context';
import { MAX_BODY_BYTES } from '../http';
import { authenticateMcp } from './mcp-auth';
import { registerMcpTools } from './mcp-tools';

export interface McpHttpOptions {
  deps: ApiDeps;
  ip: string | null;
  /** Server version reported to MCP clients. */
  version?: string;
  onInternalError?: (error: unknown) => void;
}

/**
 * Serves Looplane's MCP server (streamable HTTP, `/api/mcp`) over the Fetch API. Stateless: every
 * request authenticates on its own and gets a fresh server, so any web instance can answer it.
 */
export async function handleMcpRequest(request: Request, options: McpHttpOptions): Promise<Response> {
  const auth = await authenticateMcp(options.deps.db, request);
  if (!auth.ok) return auth.response;
  // Stateless: there is no server-initiated stream to open, so GET is refused (clients expect 405).
  if (request.method !== 'POST') {
    return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST only' }, id: null }), {
      status: 405,
      headers: { allow: 'POST', 'content-type': 'application/json' },
    });
  }
  const trpc = await createTrpcContext(options.deps, { authorization: auth.caller.authorization, session: null, ip: options.ip });
  const server = new McpServer({ name: 'looplane', version: options.version ?? '0.1.0' }, { capabilities: { tools: {} } });
  registerMcpTools(server, { trpc, teamId: auth.caller.teamId, ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}) });
  // No session id generator = stateless mode; JSON responses suit request/response tools.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // With JSON responses the reply is complete here; closing frees the per-request server.
    await server.close();
  }
}
