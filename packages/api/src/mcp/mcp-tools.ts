import { RUN_STATUSES } from '@looplane/db/vocabulary';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { workspaceSourceSchema } from '@looplane/engine';
import { z } from 'zod';
import { appRouter } from '../root';
import { createCallerFactory } from '../trpc';
import type { Context } from '../context';
import { idSchema } from '../schemas';
import { errorResult, jsonResult } from './mcp-result';

const createCaller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof createCaller>;

export interface McpToolContext {
  /** The tRPC context of the authenticated token: every tool calls the same procedures as HTTP. */
  trpc: Context;
  teamId: string;
  onInternalError?: (error: unknown) => void;
}

async function guarded(work: () => Promise<unknown>, ctx: McpToolContext): Promise<CallToolResult> {
  try {
    return jsonResult(await work());
  } catch (error) {
    return errorResult(error, ctx.onInternalError);
  }
}

const budgetShape = z
  .object({
    tokens: z.int().min(1).optional(),
    costMicros: z.int().min(1).optional(),
    toolCalls: z.int().min(1).optional(),
    onExceed: z.enum(['wait', 'fail']).optional(),
  })
  .describe('Limits for the run; omitted = unlimited');

/**
 * Registers Looplane's control tools. Each one is a thin call of the tRPC procedure with the
 * token's team filled in, so authorization (role ladder, team scope) is exactly tRPC's.
 */
export function registerMcpTools(server: McpServer, ctx: McpToolContext): void {
  const caller = createCaller(ctx.trpc);
  const teamId = ctx.teamId;

  server.registerTool(
    'list_runs',
    {
      description: 'List the team’s runs, newest first (viewer role).',
      inputSchema: {
        status: z.array(z.enum(RUN_STATUSES)).optional(),
        text: z.string().max(200).optional().describe('Substring of the goal'),
        limit: z.int().min(1).max(200).optional(),
        cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
      },
    },
    (input) => guarded(() => caller.runs.list({ teamId, ...input }), ctx),
  );

  server.registerTool('get_run', { description: 'One run: status, budget, spend and sessions (viewer role).', inputSchema: { runId: idSchema } }, ({ runId }) =>
    guarded(() => caller.runs.get({ teamId, runId }), ctx),
  );

  server.registerTool(
    'start_run',
    {
      description: 'Start a run of an agent (by id or name) with a goal; returns the run id (operator role).',
      inputSchema: {
        agentId: idSchema.optional(),
        agentName: z.string().max(100).optional(),
        goal: z.string().max(20_000),
        budget: budgetShape.optional(),
        workspace: workspaceSourceSchema
          .optional()
          .describe(
            'Where the run’s files come from: { git: { url, ref?, secretRef?, depth? } }, { archive: { uploadId } } or { session: { sessionId, atEvent? } }; ' +
              'default the agent’s own, else an empty workspace',
          ),
      },
    },
    ({ agentId, agentName, goal, budget, workspace }) =>
      guarded(async () => {
        let agent = agentId;
        if (!agent && agentName !== undefined) {
          const agents = await caller.agents.list({ teamId });
          agent = agents.find((a) => a.name === agentName)?.id;
          if (!agent) return { error: `No agent named "${agentName}" in this team` };
        }
        return caller.runs.create({ teamId, ...(agent ? { agentId: agent } : {}), goal, ...(budget ? { budget } : {}), ...(workspace ? { workspace } : {}) });
      }, ctx),
  );

  server.registerTool('cancel_run', { description: 'Cancel a run that has not finished (operator role).', inputSchema: { runId: idSchema } }, ({ runId }) =>
    guarded(() => caller.runs.cancel({ teamId, runId }), ctx),
  );

  server.registerTool(
    'read_run_events',
    {
      description: 'A run’s events after an event number, oldest first (viewer role).',
      inputSchema: { runId: idSchema, after: z.int().min(0).optional(), limit: z.int().min(1).max(1000).optional() },
    },
    (input) => guarded(() => caller.runs.events({ teamId, ...input }), ctx),
  );

  registerApprovalTools(server, caller, ctx);
}

function registerApprovalTools(server: McpServer, caller: Caller, ctx: McpToolContext): void {
  const teamId = ctx.teamId;
  server.registerTool(
    'list_approvals',
    {
      description: 'Approvals of the team, pending first (viewer role).',
      inputSchema: {
        status: z.enum(['pending', 'approved', 'rejected', 'expired', 'cancelled']).optional(),
        runId: idSchema.optional(),
        limit: z.int().min(1).max(100).optional(),
        cursor: z.string().max(200).optional(),
      },
    },
    (input) => guarded(() => caller.approvals.list({ teamId, ...input }), ctx),
  );
  server.registerTool(
    'decide_approval',
    {
      description: 'Approve or reject a pending approval; a rejection comment is what the agent is told (approver role).',
      inputSchema: { approvalId: idSchema, decision: z.enum(['approve', 'reject']), comment: z.string().max(2000).optional() },
    },
    (input) => guarded(() => caller.approvals.decide({ teamId, ...input }), ctx),
  );
}
