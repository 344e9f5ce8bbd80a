import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { authedProcedure, createRouter } from '../trpc';
import { passwordSchema } from '../schemas';
import { changePassword } from '../services/account.service';

export const accountRouter = createRouter({
  /**
   * A person changes their own password (the current one is required). Every session of theirs
   * ends, this one included. API tokens may not: a token is not a person's presence.
   */
  changePassword: authedProcedure
    .input(z.object({ currentPassword: z.string().min(1, 'is required').max(200), newPassword: passwordSchema }))
    .mutation(({ ctx, input }) => {
      if (ctx.actor.type !== 'user') throw new TRPCError({ code: 'FORBIDDEN', message: 'API tokens cannot change a password; sign in to the dashboard' });
      return changePassword(ctx.db, ctx.actor, input, ctx.ip);
    }),
});
