import { createRouter } from './trpc';
import { agentsRouter } from './routers/agents.router';
import { meProcedure } from './routers/me.router';
import { runsRouter } from './routers/runs.router';
import { teamsRouter } from './routers/teams.router';
import { tokensRouter } from './routers/tokens.router';

export const appRouter = createRouter({
  me: meProcedure,
  teams: teamsRouter,
  tokens: tokensRouter,
  agents: agentsRouter,
  runs: runsRouter,
});

export type AppRouter = typeof appRouter;
