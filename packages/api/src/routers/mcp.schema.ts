import { z } from 'zod';
import { idSchema } from '../schemas';

/** Part of every tool name (`mcp:<name>:<tool>`), so kept to what a policy pattern can name plainly. */
const mcpServerNameSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'must be lowercase letters, digits and dashes');

const argSchema = z
  .string()
  .max(4096)
  .refine((arg) => !arg.includes('\0'), 'must not contain NUL');

export const addMcpServerInput = z
  .object({
    name: mcpServerNameSchema,
    transport: z.enum(['stdio', 'http']),
    /** stdio: the program, run inside the run's sandbox (found on the sandbox's PATH or in the workspace). */
    command: z
      .string()
      .trim()
      .min(1)
      .max(1024)
      .refine((c) => !c.includes('\0'), 'must not contain NUL')
      .optional(),
    args: z.array(argSchema).max(64).optional(),
    /** http: the server's streamable HTTP endpoint, reached through the run's egress proxy. */
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2048)
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.transport === 'stdio') {
      if (!input.command) ctx.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs a command' });
      if (input.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'a stdio server takes a command, not a url' });
    } else {
      if (!input.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'an http server needs a url' });
      if (input.command || input.args) ctx.addIssue({ code: 'custom', path: ['command'], message: 'an http server takes a url, not a command' });
    }
  });
export type AddMcpServerInput = z.infer<typeof addMcpServerInput>;

export const mcpServerRefInput = z.object({ serverId: idSchema });
