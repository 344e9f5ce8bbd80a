import { CallToolResultSchema, LATEST_PROTOCOL_VERSION, ListToolsResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * MCP over stdio, one exchange per process: the worker writes the whole client side up front
 * (initialize, initialized, one request) and closes stdin; the server answers in order and exits
 * at end of input. The sandbox's exec takes stdin as a whole, and a fresh server per call means no
 * state of one run's calls can leak into another's.
 */
const REQUEST_ID = 2;

export type McpRequest = { method: 'tools/list' } | { method: 'tools/call'; name: string; arguments: Record<string, unknown> };

/** The bytes written to the server's stdin: newline-delimited JSON-RPC messages. */
export function stdinFor(request: McpRequest): string {
  const params = request.method === 'tools/call' ? { name: request.name, arguments: request.arguments } : {};
  return [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'looplane', version: '0.1.0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: REQUEST_ID, method: request.method, params },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n')
    .concat('\n');
}

const responseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.number(), z.string()]),
  result: z.unknown().optional(),
  error: z.object({ code: z.number(), message: z.string() }).optional(),
});

/** The server's answer to our request, from its stdout; a readable error when there is none. */
function answer(stdout: string): { ok: true; result: unknown } | { ok: false; error: string } {
  for (const line of stdout.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      continue;
    }
    const parsed = responseSchema.safeParse(message);
    if (!parsed.success || parsed.data.id !== REQUEST_ID) continue;
    if (parsed.data.error) return { ok: false, error: `the MCP server answered with an error: ${parsed.data.error.message}` };
    return { ok: true, result: parsed.data.result };
  }
  return { ok: false, error: 'the MCP server exited without answering' };
}

/** The tools of a `tools/list` exchange. */
export function parseToolList(stdout: string): { ok: true; tools: Tool[] } | { ok: false; error: string } {
  const reply = answer(stdout);
  if (!reply.ok) return reply;
  const parsed = ListToolsResultSchema.safeParse(reply.result);
  return parsed.success ? { ok: true, tools: parsed.data.tools } : { ok: false, error: 'the MCP server sent a malformed tool list' };
}

/** The result of a `tools/call` exchange. */
export function parseToolCall(stdout: string): { ok: true; result: CallToolResult } | { ok: false; error: string } {
  const reply = answer(stdout);
  if (!reply.ok) return reply;
  const parsed = CallToolResultSchema.safeParse(reply.result);
  return parsed.success ? { ok: true, result: parsed.data } : { ok: false, error: 'the MCP server sent a malformed tool result' };
}

/** A tool result as the text the model reads (text parts verbatim; other parts named). */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type} content]`));
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}
