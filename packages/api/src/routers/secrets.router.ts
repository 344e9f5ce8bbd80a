import { createRouter, teamProcedure } from '../trpc';
import { createSecret, deleteSecret, listSecrets } from '../services/secrets.service';
import { createSecretInput, secretRefInput } from './secrets.schema';

/**
 * Team secrets, named by the policy's egress credentials (`secretRef`) and injected by the
 * worker's egress proxy. Admin only: values are sealed at rest and never leave the server;
 * responses carry the name, the last 4 characters and where the active policy uses it.
 */
export const secretsRouter = createRouter({
  list: teamProcedure('admin').query(({ ctx }) => listSecrets(ctx.db, ctx.teamId)),

  create: teamProcedure('admin')
    .input(createSecretInput)
    .mutation(({ ctx, input }) => createSecret(ctx.db, ctx.secretBox, ctx.actor, ctx.teamId, input, ctx.ip)),

  delete: teamProcedure('admin')
    .input(secretRefInput)
    .mutation(({ ctx, input }) => deleteSecret(ctx.db, ctx.actor, ctx.teamId, input.name, ctx.ip)),
});
