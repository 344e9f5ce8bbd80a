import { z } from 'zod';
import { webhookEventsSchema, webhookUrlSchema } from '@looplane/webhooks';
import { idSchema } from '../schemas';

const descriptionSchema = z.string().trim().max(500);

/** `webhooks.create`: where, which events, and a note for the team. */
export const createWebhookInput = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  description: descriptionSchema.default(''),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

/** `webhooks.update`: only the fields given change; `enabled: true` re-enables a disabled endpoint. */
export const updateWebhookInput = z
  .object({
    webhookId: idSchema,
    url: webhookUrlSchema.optional(),
    events: webhookEventsSchema.optional(),
    description: descriptionSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).some((key) => key !== 'webhookId' && key !== 'teamId'), { message: 'nothing to change' });
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookRefInput = z.object({ webhookId: idSchema });

/** `webhooks.deliveries`: the endpoint's delivery log, newest first; `cursor` is the last delivery id of the previous page. */
export const listDeliveriesInput = z.object({
  webhookId: idSchema,
  cursor: idSchema.optional(),
  limit: z.int().min(1).max(100).default(20),
});
export type ListDeliveriesInput = z.infer<typeof listDeliveriesInput>;

export const deliveryRefInput = z.object({ deliveryId: idSchema });
