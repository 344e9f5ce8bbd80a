import { z } from 'zod';
import { createTriggerInput, triggerAuthSchema, triggerChangesSchema } from '../../routers/triggers.schema';
import { id, intQuery, timestamp } from './common.schemas';
import { workspaceSource } from './workspace.schemas';

export const triggerIdParams = z.strictObject({ triggerId: id });

/** `POST /triggers`. */
export const createTriggerBody = createTriggerInput.strict().meta({ id: 'CreateTriggerRequest' });

/** `PATCH /triggers/{triggerId}`: the fields to change. */
export const updateTriggerBody = triggerChangesSchema.strict().meta({ id: 'UpdateTriggerRequest' });

export const listTriggerDeliveriesQuery = z
  .strictObject({
    cursor: id.optional().meta({ description: '`nextCursor` of the previous page' }),
    limit: intQuery(1, 100).optional().meta({ description: 'Deliveries per page (default 20)' }),
  })
  .meta({ id: 'ListTriggerDeliveriesQuery' });

/** A trigger's run budget: what it was given (empty when none: the run is unlimited). */
const triggerBudget = z
  .strictObject({
    tokens: z.int().optional(),
    costMicros: z.int().optional(),
    toolCalls: z.int().optional(),
    wallMs: z.int().optional(),
    onExceed: z.enum(['wait', 'fail']).optional(),
  })
  .meta({ id: 'TriggerBudget' });

const triggerTarget = z
  .discriminatedUnion('type', [
    z
      .strictObject({
        type: z.literal('start_run'),
        agentId: id.nullable(),
        graphId: id.nullable(),
        goalTemplate: z.string().meta({ description: 'The goal; each `{{payload.a.b}}` becomes that value of the delivery, as delimited data' }),
        budget: triggerBudget,
        workspace: workspaceSource.nullable(),
      })
      .meta({ id: 'TriggerStartRun', description: 'Each delivery starts a run of the agent or graph' }),
    z
      .strictObject({
        type: z.literal('message_run'),
        runId: id,
        messageTemplate: z.string().nullable().meta({ description: 'null: the trigger’s name and the whole payload, as delimited data' }),
      })
      .meta({ id: 'TriggerMessageRun', description: 'Each delivery is a message to the run (a finished run continues with it)' }),
  ])
  .meta({ id: 'TriggerTarget' });

export const trigger = z
  .strictObject({
    id,
    teamId: id,
    name: z.string(),
    path: z.string().meta({ description: 'Where deliveries are POSTed, below the server’s URL: /api/hooks/{id}' }),
    target: triggerTarget,
    auth: triggerAuthSchema.meta({ id: 'TriggerAuth', description: 'standard_webhooks: a signed request; bearer: Authorization: Bearer <secret>' }),
    rateLimitPerMinute: z.int(),
    enabled: z.boolean(),
    createdById: id.nullable().meta({ description: 'Whose runs the deliveries start (its creator, while an operator or above of the team)' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Trigger' });

export const triggerList = z.array(trigger).meta({ id: 'TriggerList', description: 'The team’s triggers, oldest first' });

export const triggerWithSecret = z
  .strictObject({
    trigger,
    secret: z.string().meta({ description: 'Shown this once: `whsec_…` (Standard Webhooks signing secret) or the bearer secret' }),
  })
  .meta({ id: 'TriggerWithSecret' });

export const triggerDeleted = z.strictObject({ id, deleted: z.literal(true) }).meta({ id: 'TriggerDeleted' });

const triggerDelivery = z
  .strictObject({
    id,
    webhookId: z.string().nullable(),
    status: z.int().meta({ description: 'The HTTP status the delivery was answered with' }),
    accepted: z.boolean(),
    reason: z.string().nullable().meta({ description: 'Why it was refused (or that it repeated an accepted webhook-id)' }),
    runId: id.nullable(),
    bytes: z.int(),
    createdAt: timestamp,
  })
  .meta({ id: 'TriggerDelivery' });

export const triggerDeliveryPage = z.strictObject({ items: z.array(triggerDelivery), nextCursor: z.string().nullable() }).meta({ id: 'TriggerDeliveryPage' });
