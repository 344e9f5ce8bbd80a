import { createRouter, teamProcedure } from '../trpc';
import { testEndpoint } from '../services/endpoints-test.service';
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from '../services/endpoints.service';
import { createEndpointInput, endpointRefInput, updateEndpointInput } from './endpoints.schema';

/**
 * Model endpoints (OpenAI-compatible or faux). Admins create, change, test and delete them;
 * operators (who put agents on them) may list them. Keys are sealed at rest and never leave the
 * server: responses carry only `hasKey` and the key's last 4 characters. A key goes only to the
 * base URL it was entered for (changing the URL drops it), and base URLs are held to the model
 * endpoint address policy (no loopback, link-local or metadata address unless
 * LOOPLANE_ENDPOINTS_ALLOW lists it).
 */
export const endpointsRouter = createRouter({
  list: teamProcedure('operator').query(({ ctx }) => listEndpoints(ctx.db, ctx.teamId)),

  create: teamProcedure('admin')
    .input(createEndpointInput)
    .mutation(({ ctx, input }) => createEndpoint(ctx.db, ctx.secretBox, ctx.endpointAddresses, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('admin')
    .input(updateEndpointInput)
    .mutation(({ ctx, input }) => updateEndpoint(ctx.db, ctx.secretBox, ctx.endpointAddresses, ctx.actor, ctx.teamId, input, ctx.ip)),

  delete: teamProcedure('admin')
    .input(endpointRefInput)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.db, ctx.actor, ctx.teamId, input.endpointId, ctx.ip)),

  test: teamProcedure('admin')
    .input(endpointRefInput)
    .mutation(({ ctx, input }) => testEndpoint(ctx.db, ctx.secretBox, ctx.endpointAddresses, ctx.actor, ctx.teamId, input.endpointId, ctx.ip)),
});
