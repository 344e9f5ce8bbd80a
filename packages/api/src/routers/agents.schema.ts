import { skillNameSchema, slashCommandsSchema, toolSpecSchema, workspaceSourceSchema } from '@looplane/engine';
import { z } from 'zod';
import { idSchema } from '../schemas';

/** Agent names are what `looplane run --agent NAME` types: lowercase, digits and dashes. */
const agentNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'must be lowercase letters, digits and dashes');

/** What a message to a busy run does: refuse it, queue it for the next step boundary, or interrupt the step. */
export const busyPolicySchema = z.enum(['reject', 'enqueue', 'interrupt']);
export type BusyPolicy = z.infer<typeof busyPolicySchema>;

/**
 * Sandbox settings of a template. The sandbox driver reads them; limits a host cannot enforce
 * make the driver refuse, never pretend (STACK.md on podman and cgroup v1).
 */
export const sandboxSettingsSchema = z.strictObject({
  /** The least isolation its calls run with: this driver or a stronger one (`bwrap` < `podman` < `gvisor` < `microvm`). */
  driver: z.enum(['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none']).optional(),
  /** podman's OCI runtime for its calls that run on podman (default: the worker's). */
  podmanRuntime: z.enum(['runc', 'crun', 'runsc']).optional(),
  /** When no driver of the worker meets the level a call needs: refuse the call (the model is told why; default), fail the run, or wait for a worker that offers it. */
  whenIsolationUnavailable: z.enum(['refuse-call', 'fail-run', 'wait']).optional(),
  network: z.enum(['none', 'egress']).optional(),
  egressHosts: z.array(z.string().min(1).max(253)).max(100).optional(),
  timeoutMs: z.int().min(1000).max(86_400_000).optional(),
  memoryMb: z.int().min(16).max(65_536).optional(),
  cpus: z.number().min(0.1).max(64).optional(),
  pids: z.int().min(1).max(4096).optional(),
});
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;

export const agentToolsSchema = z
  .array(toolSpecSchema)
  .max(200)
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.name)) ctx.addIssue({ code: 'custom', message: `tool ${tool.name} is listed twice` });
      seen.add(tool.name);
    }
  });

/** Names of the team's skills an agent may load (`load_skill`); each must exist when the agent is saved. */
export const agentSkillsSchema = z
  .array(skillNameSchema)
  .max(100)
  .refine((names) => new Set(names).size === names.length, 'a skill is listed twice');

const templateFields = {
  description: z.string().trim().max(500),
  endpointId: idSchema,
  systemPrompt: z.string().max(50_000),
  tools: agentToolsSchema,
  sandbox: sandboxSettingsSchema,
  slashCommands: slashCommandsSchema.max(50),
  busyPolicy: busyPolicySchema,
  maxConcurrentRuns: z.int().min(1).max(1000).nullable(),
  /** The files every run of the agent starts from unless the run names its own (null: an empty workspace). */
  workspace: workspaceSourceSchema.nullable(),
  skills: agentSkillsSchema,
  /** A persistent agent's run never finishes on a final answer: it waits (free) for the next message. */
  persistent: z.boolean(),
};

export const createAgentInput = z.object({
  name: agentNameSchema,
  description: templateFields.description.default(''),
  endpointId: templateFields.endpointId,
  systemPrompt: templateFields.systemPrompt.default(''),
  tools: templateFields.tools.default([]),
  sandbox: templateFields.sandbox.default({}),
  slashCommands: templateFields.slashCommands.default([]),
  busyPolicy: templateFields.busyPolicy.default('enqueue'),
  maxConcurrentRuns: templateFields.maxConcurrentRuns.default(null),
  workspace: templateFields.workspace.optional(),
  skills: templateFields.skills.default([]),
  persistent: templateFields.persistent.default(false),
});
export type CreateAgentInput = z.infer<typeof createAgentInput>;

/** A partial update; `expectedVersion` makes it a compare-and-set against a concurrent edit. */
export const updateAgentInput = z.object({
  agentId: idSchema,
  expectedVersion: z.int().min(1).max(1_000_000_000).optional(),
  name: agentNameSchema.optional(),
  description: templateFields.description.optional(),
  endpointId: templateFields.endpointId.optional(),
  systemPrompt: templateFields.systemPrompt.optional(),
  tools: templateFields.tools.optional(),
  sandbox: templateFields.sandbox.optional(),
  slashCommands: templateFields.slashCommands.optional(),
  busyPolicy: templateFields.busyPolicy.optional(),
  maxConcurrentRuns: templateFields.maxConcurrentRuns.optional(),
  workspace: templateFields.workspace.optional(),
  skills: templateFields.skills.optional(),
  persistent: templateFields.persistent.optional(),
});
export type UpdateAgentInput = z.infer<typeof updateAgentInput>;
