import { z } from 'zod';
import { roleSchema } from '@looplane/shared';
import { createRouter, teamProcedure } from '../trpc';
import { idSchema, nameSchema } from '../schemas';
import { createToken, listTokens, revokeToken } from '../services/tokens.service';

export const tokensRouter = createRouter({
  create: teamProcedure('operator')
    .input(z.object({ name: nameSchema, role: roleSchema, expiresInDays: z.number().int().min(1).max(3650).optional() }))
    .mutation(({ ctx, input }) => createToken(ctx.db, ctx.actor, ctx.role, input, ctx.ip, ctx.principal.kind === 'token' ? ctx.principal.tokenId : null)),

  list: teamProcedure('viewer').query(({ ctx }) => listTokens(ctx.db, ctx.teamId, ctx.principal.userId, ctx.role)),

  revoke: teamProcedure('operator')
    .input(z.object({ tokenId: idSchema }))
    .mutation(({ ctx, input }) => revokeToken(ctx.db, ctx.actor, ctx.role, ctx.teamId, input.tokenId, ctx.ip)),
});
