import { AppError } from '@looplane/shared';
import { z } from 'zod';
import { delegateTargetSchema, toolSpecSchema } from './tool-spec';
import { skillIndexEntrySchema, skillNameSchema } from '../skills/skill-schemas';

/** The endpoint limits and prices the engine plans with (ModelEndpoint columns). Money: micro-dollars per million tokens. */
const modelLimitsSchema = z.object({
  model: z.string().min(1),
  contextWindow: z.int().positive().default(128_000),
  maxOutputTokens: z.int().positive().default(4096),
  inputMicrosPerMTok: z.int().nonnegative().default(0),
  outputMicrosPerMTok: z.int().nonnegative().default(0),
});
export type ModelLimits = z.output<typeof modelLimitsSchema>;

const compactionConfigSchema = z.object({
  /** Compact when prompt + max output would exceed this share of the context window. */
  threshold: z.number().gt(0).lte(1).default(0.8),
  /** Most recent turns always kept verbatim (fewer if nothing else can be compacted). */
  keepRecentTurns: z.int().min(1).default(3),
  /** `deterministic` is free and offline (faux); `model` asks the run's model and is budgeted. */
  summarizer: z.enum(['deterministic', 'model']).default('model'),
  summaryMaxTokens: z.int().positive().default(1024),
});

/**
 * The run's sandbox, from its agent template: network access through the per-run egress proxy
 * (`egress` with an allowlist of `host:port`) and limits over the worker's defaults. Optional, so
 * configs recorded before it existed stay valid; absent means no network and the worker's limits.
 */
export const runSandboxSchema = z.object({
  /** A driver the template asked for; the worker refuses calls rather than run them less isolated. */
  driver: z.enum(['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none']).optional(),
  /** The OCI runtime its calls run with where they run on podman (default: the worker's, LOOPLANE_PODMAN_RUNTIME). */
  podmanRuntime: z.enum(['runc', 'crun', 'runsc']).optional(),
  /**
   * A call that no driver of the worker can run at the level it needs: `refuse-call` (default) tells
   * the model why and the run goes on; `fail-run` ends the run failed with the reason; `wait` defers
   * the call (nothing of it runs) and the run waits, status waiting for isolation, until a worker that
   * offers the level takes it (the scheduler hands it to such workers: runtime/isolation-queues.ts).
   * None runs it weaker.
   */
  whenIsolationUnavailable: z.enum(['refuse-call', 'fail-run', 'wait']).optional(),
  network: z.enum(['none', 'egress']).default('none'),
  /** `host:port` (or `*.domain:port`) the egress proxy lets through; only with `network: egress`. */
  egressHosts: z.array(z.string().min(1).max(260)).max(100).default([]),
  limits: z
    .object({
      wallTimeMs: z.int().min(100).max(86_400_000).optional(),
      memoryBytes: z
        .int()
        .min(16 * 1024 * 1024)
        .optional(),
      cpus: z.number().min(0.05).max(256).optional(),
      pids: z.int().min(8).max(1_000_000).optional(),
    })
    .prefault({}),
});
export type RunSandbox = z.output<typeof runSandboxSchema>;

/**
 * Everything that shapes a run's decisions. It is recorded, fully defaulted, in `run.started`, so
 * replay never depends on a template or a default that changed later.
 */
export const runConfigSchema = z
  .object({
    systemPrompt: z.string().default(''),
    model: modelLimitsSchema,
    tools: z.array(toolSpecSchema).default([]),
    /** `on_demand`: the model sees names + one-liners and a `load_tools` tool; `eager`: every schema up front. */
    toolLoading: z.enum(['on_demand', 'eager']).default('on_demand'),
    delegates: z.array(delegateTargetSchema).default([]),
    /** Team skills the model may load with `load_skill`: it sees their names and one-liners only (absent: none). */
    skills: z.array(skillIndexEntrySchema).max(200).optional(),
    /** Skills loaded before the first model call (a slash command's `skill`), in this order. */
    preloadSkills: z.array(skillNameSchema).max(20).optional(),
    compaction: compactionConfigSchema.prefault({}),
    limits: z
      .object({
        maxTurns: z.int().positive().default(50),
        maxToolOutputBytes: z.int().positive().default(16_000),
      })
      .prefault({}),
    onBudgetExceeded: z.enum(['wait', 'fail']).default('wait'),
    /** A persistent agent's run never finishes on a final answer: it waits (free) for the next message. */
    persistent: z.boolean().optional(),
    /** `report` tells the model a non-idempotent call was interrupted; `ask` holds it for a human first. */
    onInterruptedTool: z.enum(['report', 'ask']).default('report'),
    /** Sandbox network and limits (see {@link runSandboxSchema}); absent: no network, worker defaults. */
    sandbox: runSandboxSchema.optional(),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    for (const tool of config.tools) {
      if (seen.has(tool.name)) ctx.addIssue({ code: 'custom', message: `tool ${tool.name} is listed twice`, path: ['tools'] });
      seen.add(tool.name);
    }
  });
export type RunConfigInput = z.input<typeof runConfigSchema>;
export type RunConfig = z.output<typeof runConfigSchema>;

/** Validates and defaults a run configuration; a bad one is the caller's error (BAD_REQUEST). */
export function parseRunConfig(input: unknown): RunConfig {
  const parsed = runConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError('BAD_REQUEST', `invalid run config: ${where}${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data;
}
