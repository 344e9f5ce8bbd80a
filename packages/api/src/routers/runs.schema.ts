import { RUN_STATUSES, type RunStatus, TERMINAL_RUN_STATUSES, WAIT_REASONS } from '@looplane/db/vocabulary';
import { workspaceSourceSchema } from '@looplane/engine';
import { z } from 'zod';
import { idSchema } from '../schemas';

export type { RunStatus };
const runStatusSchema = z.enum(RUN_STATUSES);
/** A run in one of these is finished: it cannot be cancelled or have its budget raised. */
export const TERMINAL_STATUSES: readonly RunStatus[] = TERMINAL_RUN_STATUSES;

/** Bounds that keep a number well inside Postgres and JavaScript integer ranges. */
const MAX_TOKENS = 10_000_000_000;
const MAX_COST_MICROS = 100_000_000_000; // $100,000
const MAX_CALLS = 1_000_000;
/** Event numbers are per run; two billion events is far past any real run. */
export const MAX_EVENT_NO = 2_147_483_647;

/**
 * A run's budget, stored on `Run.budget`. Limits are pre-authorised on the run ledger (tokens,
 * cost, tool calls); `wallMs` is enforced by the worker. Omitted = unlimited.
 */
const runBudgetSchema = z.strictObject({
  tokens: z.int().min(1).max(MAX_TOKENS).optional(),
  costMicros: z.int().min(1).max(MAX_COST_MICROS).optional(),
  toolCalls: z.int().min(1).max(MAX_CALLS).optional(),
  wallMs: z
    .int()
    .min(1000)
    .max(30 * 86_400_000)
    .optional(),
  /** When a call would exceed a limit: wait for a human to raise it, or fail the run. */
  onExceed: z.enum(['wait', 'fail']).default('wait'),
});
export type RunBudget = z.infer<typeof runBudgetSchema>;

const goalSchema = z.string().trim().min(1).max(20_000);

export const createRunInput = z
  .object({
    /** The agent template to run. */
    agentId: idSchema.optional(),
    /** A swarm graph to run (its root node gets the goal); give agentId or graphId. */
    graphId: idSchema.optional(),
    /** Free text, or `/command args` expanded with the agent's slash commands. */
    goal: goalSchema,
    budget: runBudgetSchema.optional(),
    /**
     * Where the run's files come from (default: the agent's own default, else an empty workspace):
     * `{ git: { url, ref?, secretRef?, depth? } }`, `{ archive: { uploadId } }` or
     * `{ session: { sessionId, atEvent? } }`.
     */
    workspace: workspaceSourceSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (!input.agentId && !input.graphId) ctx.addIssue({ code: 'custom', path: ['agentId'], message: 'give the agent to run (agentId)' });
    if (input.agentId && input.graphId) ctx.addIssue({ code: 'custom', path: ['graphId'], message: 'give agentId or graphId, not both' });
  });
export type CreateRunInput = z.infer<typeof createRunInput>;

export const runRefInput = z.object({ runId: idSchema });

export const sendMessageInput = z.object({ runId: idSchema, text: z.string().trim().min(1).max(20_000) });

/** Amounts added to the run ledger's limits (an unlimited limit stays unlimited). */
export const raiseBudgetInput = z
  .object({
    runId: idSchema,
    tokens: z.int().min(1).max(MAX_TOKENS).optional(),
    costMicros: z.int().min(1).max(MAX_COST_MICROS).optional(),
    toolCalls: z.int().min(1).max(MAX_CALLS).optional(),
  })
  .refine((input) => input.tokens !== undefined || input.costMicros !== undefined || input.toolCalls !== undefined, {
    message: 'give at least one of tokens, costMicros or toolCalls to raise',
  });
export type RaiseBudgetInput = z.infer<typeof raiseBudgetInput>;

export const listRunsInput = z.object({
  status: z.array(runStatusSchema).min(1).max(RUN_STATUSES.length).optional(),
  /** Waiting runs only, on one of these: an approval, a child, the budget, a message, a worker offering an isolation level. */
  waitReason: z.array(z.enum(WAIT_REASONS)).min(1).max(WAIT_REASONS.length).optional(),
  agentId: idSchema.optional(),
  graphId: idSchema.optional(),
  /** Runs that finished at or after this time (e.g. failed in the last 24 hours). */
  finishedSince: z
    .union([z.date(), z.iso.datetime({ offset: true })])
    .transform((at) => new Date(at))
    .optional(),
  createdById: idSchema.optional(),
  /** Case-insensitive substring of the goal. */
  text: z.string().trim().min(1).max(200).optional(),
  sort: z.enum(['created', 'updated']).default('created'),
  limit: z.int().min(1).max(200).default(50),
  /** Opaque: `nextCursor` of the previous page. */
  cursor: z.string().max(200).nullish(),
});
export type ListRunsInput = z.infer<typeof listRunsInput>;

export const runEventsInput = z.object({
  runId: idSchema,
  /** Return events with an event number above this (0 = from the start). */
  after: z.int().min(0).max(MAX_EVENT_NO).default(0),
  limit: z.int().min(1).max(1000).default(200),
});
