import { createRouter, teamProcedure } from '../trpc';
import { runCost, teamSpend } from '../services/costs.service';
import { runCostInput, spendInput } from './costs.schema';

/** Spend views: the team's spend over time (by agent, endpoint, graph edge) and one run's breakdown. */
export const costsRouter = createRouter({
  spend: teamProcedure('viewer')
    .input(spendInput)
    .query(({ ctx, input }) => teamSpend(ctx.db, ctx.teamId, input.days)),

  run: teamProcedure('viewer')
    .input(runCostInput)
    .query(({ ctx, input }) => runCost(ctx.db, ctx.teamId, input.runId)),
});
