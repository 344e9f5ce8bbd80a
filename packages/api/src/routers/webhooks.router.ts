import { createRouter, teamProcedure } from '../trpc';
import { listDeliveries, redeliver, sendTestEvent } from '../services/webhook-deliveries.service';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from '../services/webhooks.service';
import { createWebhookInput, deliveryRefInput, listDeliveriesInput, updateWebhookInput, webhookRefInput } from './webhooks.schema';

/**
 * Webhook endpoints: the team's events (run finished or waiting, approvals requested and decided,
 * budgets and graph edges exhausted) POSTed to a URL, signed per the Standard Webhooks spec and
 * retried for about a day. Admin only: endpoints receive everything the events say. The signing
 * secret is sealed at rest and shown once, at create and at rotation.
 */
export const webhooksRouter = createRouter({
  list: teamProcedure('admin').query(({ ctx }) => listWebhooks(ctx.db, ctx.teamId)),

  get: teamProcedure('admin')
    .input(webhookRefInput)
    .query(({ ctx, input }) => getWebhook(ctx.db, ctx.teamId, input.webhookId)),

  create: teamProcedure('admin')
    .input(createWebhookInput)
    .mutation(({ ctx, input }) => createWebhook(ctx.db, ctx.secretBox, ctx.webhooks, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('admin')
    .input(updateWebhookInput)
    .mutation(({ ctx, input }) => updateWebhook(ctx.db, ctx.webhooks, ctx.actor, ctx.teamId, input, ctx.ip)),

  delete: teamProcedure('admin')
    .input(webhookRefInput)
    .mutation(({ ctx, input }) => deleteWebhook(ctx.db, ctx.actor, ctx.teamId, input.webhookId, ctx.ip)),

  rotateSecret: teamProcedure('admin')
    .input(webhookRefInput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.secretBox, ctx.actor, ctx.teamId, input.webhookId, ctx.ip)),

  test: teamProcedure('admin')
    .input(webhookRefInput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.actor, ctx.teamId, input.webhookId, ctx.ip)),

  deliveries: teamProcedure('admin')
    .input(listDeliveriesInput)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.teamId, input)),

  redeliver: teamProcedure('admin')
    .input(deliveryRefInput)
    .mutation(({ ctx, input }) => redeliver(ctx.db, ctx.actor, ctx.teamId, input.deliveryId, ctx.ip)),
});
