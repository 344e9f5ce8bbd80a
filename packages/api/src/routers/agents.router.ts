import { z } from 'zod';
import { createRouter, teamProcedure } from '../trpc';
import { idSchema } from '../schemas';
import { createAgent, getAgent, listAgents, listEndpointOptions, updateAgent } from '../services/agents.service';
import { createAgentInput, updateAgentInput } from './agents.schema';

/** Agent templates: what a run is started from (endpoint, prompt, tools, sandbox, slash commands). */
export const agentsRouter = createRouter({
  list: teamProcedure('viewer').query(({ ctx }) => listAgents(ctx.db, ctx.teamId)),

  get: teamProcedure('viewer')
    .input(z.object({ agentId: idSchema }))
    .query(({ ctx, input }) => getAgent(ctx.db, ctx.teamId, input.agentId)),

  /** Model endpoints a template may use (the form's picker). */
  endpointOptions: teamProcedure('viewer').query(({ ctx }) => listEndpointOptions(ctx.db, ctx.teamId)),

  create: teamProcedure('operator')
    .input(createAgentInput)
    .mutation(({ ctx, input }) => createAgent(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('operator')
    .input(updateAgentInput)
    .mutation(({ ctx, input }) => updateAgent(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),
});
