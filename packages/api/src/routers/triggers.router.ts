import { createRouter, teamProcedure } from '../trpc';
import {
  createTrigger,
  deleteTrigger,
  getTrigger,
  listDeliveriesOfTrigger,
  listTriggers,
  rotateTriggerSecret,
  updateTrigger,
} from '../services/triggers.service';
import { createTriggerInput, listTriggerDeliveriesInput, triggerRefInput, updateTriggerInput } from './triggers.schema';

/**
 * Inbound triggers: a public URL (`POST /api/hooks/{triggerId}`) that starts a run of an agent or
 * graph, or sends a message to a run, for a delivery signed with the trigger's secret. Every member
 * reads them and their deliveries; changes are admin only, as for webhooks: a trigger holds a
 * secret and lets an outside system start work in its creator's name. Every change leaves an
 * audit row; the secret is shown once, at create and at rotation.
 */
export const triggersRouter = createRouter({
  list: teamProcedure('viewer').query(({ ctx }) => listTriggers(ctx.db, ctx.teamId)),

  get: teamProcedure('viewer')
    .input(triggerRefInput)
    .query(({ ctx, input }) => getTrigger(ctx.db, ctx.teamId, input.triggerId)),

  create: teamProcedure('admin')
    .input(createTriggerInput)
    .mutation(({ ctx, input }) => createTrigger(ctx.db, ctx.secretBox, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('admin')
    .input(updateTriggerInput)
    .mutation(({ ctx, input }) => updateTrigger(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  rotateSecret: teamProcedure('admin')
    .input(triggerRefInput)
    .mutation(({ ctx, input }) => rotateTriggerSecret(ctx.db, ctx.secretBox, ctx.actor, ctx.teamId, input.triggerId, ctx.ip)),

  delete: teamProcedure('admin')
    .input(triggerRefInput)
    .mutation(({ ctx, input }) => deleteTrigger(ctx.db, ctx.actor, ctx.teamId, input.triggerId, ctx.ip)),

  deliveries: teamProcedure('viewer')
    .input(listTriggerDeliveriesInput)
    .query(({ ctx, input }) => listDeliveriesOfTrigger(ctx.db, ctx.teamId, input)),
});
