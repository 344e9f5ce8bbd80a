import { createRouter, teamProcedure } from '../trpc';
import { teamOverview } from '../services/overview.service';

/** The team's mission control: what runs, what is stuck, what waits on a person, what it costs. */
export const overviewRouter = createRouter({
  get: teamProcedure('viewer').query(({ ctx }) => teamOverview(ctx.db, ctx.teamId)),
});
