import { z } from 'zod';
import { idSchema, nameSchema } from '../schemas';
import { templateProblem } from '../services/trigger-template';
import { createRunInput } from './runs.schema';

/** The run input's own field schemas: a delivery's run takes exactly what runs.create takes. */
const { budget: budgetSchema, workspace: workspaceSchema } = createRunInput.shape;

/** A goal or message template: `{{payload.a.b}}` paths only, at most as long as a goal. */
const templateSchema = z
  .string()
  .trim()
  .min(1)
  .max(20_000)
  .superRefine((template, ctx) => {
    const problem = templateProblem(template);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Accepted deliveries per minute (a token bucket: bursts up to this many, refilled evenly). */
const rateLimitSchema = z.int().min(1).max(60_000);

const startRunTarget = z
  .strictObject({
    type: z.literal('start_run'),
    agentId: idSchema.optional(),
    graphId: idSchema.optional(),
    /** The run's goal; each `{{payload.a.b}}` becomes that value of the delivery's JSON, as delimited data. */
    goalTemplate: templateSchema,
    budget: budgetSchema,
    workspace: workspaceSchema,
  })
  .superRefine((target, ctx) => {
    if (!target.agentId && !target.graphId) ctx.addIssue({ code: 'custom', path: ['agentId'], message: 'give the agent (agentId) or graph (graphId) to run' });
    if (target.agentId && target.graphId) ctx.addIssue({ code: 'custom', path: ['graphId'], message: 'give agentId or graphId, not both' });
  });

const messageRunTarget = z.strictObject({
  type: z.literal('message_run'),
  /** The run of the team each delivery is a message to (a finished run continues with it). */
  runId: idSchema,
  /** The message; without one, the trigger's name and the whole payload, as delimited data. */
  messageTemplate: templateSchema.optional(),
});

/** What a delivery does: start a run of an agent or graph, or send a message to one run. */
const triggerTargetSchema = z.discriminatedUnion('type', [startRunTarget, messageRunTarget]);

export const triggerAuthSchema = z.enum(['standard_webhooks', 'bearer']);

export const createTriggerInput = z.object({
  name: nameSchema,
  target: triggerTargetSchema,
  /** standard_webhooks: signed webhook-id / webhook-timestamp / webhook-signature; bearer: Authorization: Bearer <secret>. */
  auth: triggerAuthSchema.default('standard_webhooks'),
  rateLimitPerMinute: rateLimitSchema.default(600),
  enabled: z.boolean().default(true),
});
export type CreateTriggerInput = z.infer<typeof createTriggerInput>;

/** The fields an update may change (the target's kind, agent, graph and run stay; make a new trigger for another). */
export const triggerChangesSchema = z.object({
  name: nameSchema.optional(),
  enabled: z.boolean().optional(),
  /** start_run only. */
  goalTemplate: templateSchema.optional(),
  /** message_run only. */
  messageTemplate: templateSchema.optional(),
  /** start_run only. */
  budget: budgetSchema,
  /** start_run only; null clears it (the agent's own default applies). */
  workspace: workspaceSchema.unwrap().nullable().optional(),
  rateLimitPerMinute: rateLimitSchema.optional(),
});
export const updateTriggerInput = triggerChangesSchema.extend({ triggerId: idSchema });
export type UpdateTriggerInput = z.infer<typeof updateTriggerInput>;

export const triggerRefInput = z.object({ triggerId: idSchema });

/** `triggers.deliveries`: newest first; `cursor` is the last delivery id of the previous page. */
export const listTriggerDeliveriesInput = z.object({
  triggerId: idSchema,
  cursor: idSchema.optional(),
  limit: z.int().min(1).max(100).default(20),
});
export type ListTriggerDeliveriesInput = z.infer<typeof listTriggerDeliveriesInput>;
