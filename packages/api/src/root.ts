import { createRouter } from './trpc';
import { meProcedure } from './routers/me.router';
import { teamsRouter } from './routers/teams.router';
import { tokensRouter } from './routers/tokens.router';

export const appRouter = createRouter({
  me: meProcedure,
  teams: teamsRouter,
  tokens: tokensRouter,
});

export type AppRouter = typeof appRouter;
