import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { authedProcedure, createRouter, publicProcedure } from '../trpc';
import { idSchema, nameSchema, passwordSchema } from '../schemas';
import { acceptInvitation, declineInvitation, listMyInvitations, previewInvitation, signUpWithInvitation } from '../services/invitations-invitee.service';

/** A signed-in person: API tokens are bound to one team and answer no invitation. */
const personProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== 'user') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'API tokens cannot answer invitations; sign in as the invited person' });
  }
  return next({ ctx: { ...ctx, invitee: { userId: ctx.principal.userId, email: ctx.principal.email } } });
});

/** An invitation code from a link (`/invite/<code>`): bounded, never echoed. */
const codeSchema = z
  .string()
  .min(10)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an invitation code');

/**
 * The invitee's side of team invitations (`teams.invite` is the admin's): a signed-in person sees
 * the invitations addressed to their email and accepts (joining with the invited role) or
 * declines; a person without an account opens the link and signs up with its code.
 */
export const invitationsRouter = createRouter({
  mine: personProcedure.query(({ ctx }) => listMyInvitations(ctx.db, ctx.invitee)),

  accept: personProcedure
    .input(z.object({ invitationId: idSchema }))
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, ctx.invitee, input.invitationId, ctx.ip)),

  decline: personProcedure
    .input(z.object({ invitationId: idSchema }))
    .mutation(({ ctx, input }) => declineInvitation(ctx.db, ctx.invitee, input.invitationId, ctx.ip)),

  /** Public: the link's holder sees what it is for. */
  preview: publicProcedure.input(z.object({ code: codeSchema })).query(({ ctx, input }) => previewInvitation(ctx.db, input.code)),

  /** Public: sign up for the invited address with the link's code, and join. */
  signUp: publicProcedure
    .input(z.object({ code: codeSchema, password: passwordSchema, name: nameSchema.optional() }))
    .mutation(({ ctx, input }) => signUpWithInvitation(ctx.db, input, ctx.ip)),
});
