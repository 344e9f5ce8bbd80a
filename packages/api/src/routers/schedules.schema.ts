import { z } from 'zod';
import { idSchema, nameSchema } from '../schemas';
import { cronProblem, isTimeZone } from '../services/schedule-timing';
import { createRunInput } from './runs.schema';

/** The run input's own field schemas: a tick's run takes exactly what runs.create takes. */
const { goal: goalSchema, budget: budgetSchema, workspace: workspaceSchema } = createRunInput.shape;

const cronSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .superRefine((cron, ctx) => {
    const problem = cronProblem(cron);
    if (problem) ctx.addIssue({ code: 'custom', message: `cron ${problem}` });
  });
/** Up to a year between ticks. */
const everySecondsSchema = z
  .int()
  .min(1)
  .max(366 * 86_400);
const timezoneSchema = z.string().trim().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone (e.g. Europe/Berlin or UTC)');
const overlapSchema = z.enum(['skip', 'queue', 'cancel_previous']);
const catchUpSchema = z.enum(['none', 'latest']);
const pauseAfterSchema = z.int().min(1).max(1000);

/** Exactly one of each pair: what to run (agent or graph) and when (cron or interval). */
function checkChoices(input: { agentId?: string | null; graphId?: string | null; cron?: string | null; everySeconds?: number | null }, ctx: z.RefinementCtx) {
  if (!input.agentId && !input.graphId) ctx.addIssue({ code: 'custom', path: ['agentId'], message: 'give the agent (agentId) or graph (graphId) to run' });
  if (input.agentId && input.graphId) ctx.addIssue({ code: 'custom', path: ['graphId'], message: 'give agentId or graphId, not both' });
  if (!input.cron && !input.everySeconds) ctx.addIssue({ code: 'custom', path: ['cron'], message: 'give cron or everySeconds' });
  if (input.cron && input.everySeconds) ctx.addIssue({ code: 'custom', path: ['everySeconds'], message: 'give cron or everySeconds, not both' });
}

export const createScheduleInput = z
  .object({
    name: nameSchema,
    agentId: idSchema.optional(),
    graphId: idSchema.optional(),
    /** 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), read in `timezone`. */
    cron: cronSchema.optional(),
    everySeconds: everySecondsSchema.optional(),
    timezone: timezoneSchema.default('UTC'),
    /** The run's goal; `{{scheduledAt}}` becomes the tick's time (ISO, UTC). */
    goal: goalSchema,
    budget: budgetSchema,
    workspace: workspaceSchema,
    /** A tick while the previous run is unfinished: skip it, start anyway (queue), or cancel the previous one. */
    overlap: overlapSchema.default('skip'),
    /** Ticks missed while no worker ran: none, or the latest one only. */
    catchUp: catchUpSchema.default('latest'),
    enabled: z.boolean().default(true),
    /** This many failed runs in a row pause the schedule (webhook schedule.paused). */
    pauseAfterFailures: pauseAfterSchema.default(5),
  })
  .superRefine(checkChoices);
export type CreateScheduleInput = z.infer<typeof createScheduleInput>;

/** Changes to a schedule: only the fields given; `null` clears cron, everySeconds or workspace (to switch between them). */
export const updateScheduleInput = z.object({
  scheduleId: idSchema,
  name: nameSchema.optional(),
  agentId: idSchema.nullable().optional(),
  graphId: idSchema.nullable().optional(),
  cron: cronSchema.nullable().optional(),
  everySeconds: everySecondsSchema.nullable().optional(),
  timezone: timezoneSchema.optional(),
  goal: goalSchema.optional(),
  budget: budgetSchema,
  workspace: workspaceSchema.unwrap().nullable().optional(),
  overlap: overlapSchema.optional(),
  catchUp: catchUpSchema.optional(),
  pauseAfterFailures: pauseAfterSchema.optional(),
});
export type UpdateScheduleInput = z.infer<typeof updateScheduleInput>;

/** Checks a schedule's fields after an update merged them. */
export const scheduleChoicesSchema = z
  .object({ agentId: z.string().nullable(), graphId: z.string().nullable(), cron: z.string().nullable(), everySeconds: z.number().nullable() })
  .superRefine(checkChoices);

export const scheduleRefInput = z.object({ scheduleId: idSchema });

export const getScheduleInput = z.object({
  scheduleId: idSchema,
  /** How many of its latest ticks to list (runs started, skips, failures). */
  ticks: z.int().min(1).max(500).default(100),
});
