import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { roleSchema } from '@looplane/shared';
import { authedProcedure, createRouter, teamProcedure } from '../trpc';
import { resolveTeamRole } from '../auth/principal';
import { emailSchema, idSchema, nameSchema, slugSchema } from '../schemas';
import { inviteMember, listInvitations, revokeInvitation } from '../services/invitations.service';
import { createTeam, listMembers, listUserTeams, removeMember, setMemberRole } from '../services/teams.service';

export const teamsRouter = createRouter({
  /** Teams the caller belongs to (a token sees only its own team). */
  list: authedProcedure.query(async ({ ctx }) => {
    const teams = await listUserTeams(ctx.db, ctx.principal.userId);
    if (ctx.principal.kind === 'user') return teams;
    const role = await resolveTeamRole(ctx.db, ctx.principal, ctx.principal.teamId);
    const tokenTeamId = ctx.principal.teamId;
    return role ? teams.filter((team) => team.id === tokenTeamId).map((team) => ({ ...team, role })) : [];
  }),

  /** Any signed-in person may start a team; they become its admin. Tokens are team-bound and may not. */
  create: authedProcedure.input(z.object({ name: nameSchema, slug: slugSchema })).mutation(({ ctx, input }) => {
    if (ctx.actor.type !== 'user') {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'API tokens are scoped to one team and cannot create teams' });
    }
    return createTeam(ctx.db, ctx.actor, input);
  }),

  members: teamProcedure('viewer').query(({ ctx }) => listMembers(ctx.db, ctx.teamId)),

  /** Members join by invitation only: the invitee accepts (the answer never says whether the address has an account). */
  invite: teamProcedure('admin')
    .input(z.object({ email: emailSchema, role: roleSchema }))
    .mutation(({ ctx, input }) => inviteMember(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  invitations: teamProcedure('admin').query(({ ctx }) => listInvitations(ctx.db, ctx.teamId)),

  revokeInvitation: teamProcedure('admin')
    .input(z.object({ invitationId: idSchema }))
    .mutation(({ ctx, input }) => revokeInvitation(ctx.db, ctx.actor, ctx.teamId, input.invitationId, ctx.ip)),

  removeMember: teamProcedure('admin')
    .input(z.object({ userId: idSchema }))
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.actor, ctx.teamId, input.userId, ctx.ip)),

  setRole: teamProcedure('admin')
    .input(z.object({ userId: idSchema, role: roleSchema }))
    .mutation(({ ctx, input }) => setMemberRole(ctx.db, ctx.actor, ctx.teamId, input.userId, input.role, ctx.ip)),
});
