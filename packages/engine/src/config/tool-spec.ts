import { z } from 'zod';

/** Names the engine itself answers; a catalogue tool may not take them. */
export const LOAD_TOOLS = 'load_tools';
export const DELEGATE = 'delegate';
const RESERVED = new Set([LOAD_TOOLS, DELEGATE, 'load_skill']);

/**
 * A catalogue tool as recorded in `run.started`. `idempotent` decides what happens to a call that
 * started but never finished: an idempotent tool re-runs, any other is reported interrupted.
 */
export const toolSpecSchema = z.object({
  name: z
    .string()
    // An MCP server's tools are named `mcp:<server>:<tool>`, so policies can match them by server.
    .regex(/^(?:[a-zA-Z0-9_-]{1,64}|mcp:[a-z0-9-]{1,40}:[a-zA-Z0-9_.-]{1,64})$/, 'tool names are 1-64 letters, digits, _ or - (or mcp:<server>:<tool>)')
    .refine((name) => !RESERVED.has(name), { message: `${LOAD_TOOLS}, ${DELEGATE} and load_skill are reserved tool names` }),
  description: z.string().max(2000),
  parameters: z.record(z.string(), z.json()).prefault({ type: 'object', properties: {} }),
  idempotent: z.boolean().default(false),
});
export type ToolSpec = z.output<typeof toolSpecSchema>;

/** A node this agent may delegate to (an outgoing swarm edge). */
export const delegateTargetSchema = z.object({
  to: z.string().min(1),
  description: z.string().default(''),
});
export type DelegateTarget = z.output<typeof delegateTargetSchema>;

/** The first line of a description, shortened: what the model sees before it loads a tool. */
export function oneLine(description: string, max = 120): string {
  const first = description.split('\n', 1)[0]?.trim() ?? '';
  return first.length <= max ? first : `${first.slice(0, max - 1)}…`;
}
