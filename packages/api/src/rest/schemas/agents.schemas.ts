import { z } from 'zod';
import { slashCommandsSchema, toolSpecSchema } from '@looplane/engine';
import { busyPolicySchema, sandboxSettingsSchema, updateAgentInput } from '../../routers/agents.schema';
import { id, timestamp } from './common.schemas';
import { workspaceSource } from './workspace.schemas';

export const agentIdParams = z.strictObject({ agentId: id });

/** `PATCH /agents/{agentId}`: the fields to change; `expectedVersion` makes it a compare-and-set. */
export const updateAgentBody = updateAgentInput
  .omit({ agentId: true })
  .extend({
    workspace: workspaceSource
      .nullable()
      .optional()
      .meta({ description: 'The files every run of the agent starts from unless the run names its own; null removes the default' }),
  })
  .strict()
  .meta({ id: 'UpdateAgentRequest' });

export const agent = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    endpoint: z.strictObject({ id, name: z.string(), kind: z.enum(['openai', 'faux']), model: z.string(), deleted: z.boolean() }),
    systemPrompt: z.string(),
    tools: z.array(toolSpecSchema),
    sandbox: sandboxSettingsSchema,
    slashCommands: slashCommandsSchema,
    busyPolicy: busyPolicySchema,
    maxConcurrentRuns: z.int().nullable(),
    workspace: workspaceSource.nullable().meta({ description: 'The files its runs start from unless a run names its own; null: an empty workspace' }),
    skills: z.array(z.string()).meta({ description: 'Names of the team skills its runs may load' }),
    persistent: z.boolean().meta({ description: 'Its runs never finish on a final answer: each waits (free) for the next message' }),
    version: z.int(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Agent' });

export const agentList = z.array(agent).meta({ id: 'AgentList', description: 'The team’s agent templates (archived ones left out), by name' });
