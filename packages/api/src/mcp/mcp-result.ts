import { TRPCError } from '@trpc/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeZodError } from '../errors';

// BigInt event numbers and Dates must survive JSON: numbers stay numbers, dates become ISO text.
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/** A tool result carrying `value` as JSON text (and as structured content when it is an object). */
export function jsonResult(value: unknown): CallToolResult {
  const text = JSON.stringify(value, replacer);
  const parsed: unknown = JSON.parse(text);
  const structured = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/**
 * A failed call as a tool error the agent can read. 4xx messages pass through as tRPC shows them;
 * internal errors stay generic (details belong in the server logs, never in a client's hands).
 */
export function errorResult(error: unknown, onInternalError?: (error: unknown) => void): CallToolResult {
  let message = 'Internal server error';
  if (error instanceof TRPCError && error.cause instanceof z.ZodError) message = `BAD_REQUEST: ${describeZodError(error.cause)}`;
  else if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') message = `${error.code}: ${error.message}`;
  else onInternalError?.(error);
  return { content: [{ type: 'text', text: message }], isError: true };
}
