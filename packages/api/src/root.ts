import { createRouter } from './trpc';
import { accountRouter } from './routers/account.router';
import { agentsRouter } from './routers/agents.router';
import { approvalsRouter } from './routers/approvals.router';
import { auditRouter } from './routers/audit.router';
import { endpointsRouter } from './routers/endpoints.router';
import { graphsRouter } from './routers/graphs.router';
import { invitationsRouter } from './routers/invitations.router';
import { meProcedure } from './routers/me.router';
import { mcpRouter } from './routers/mcp.router';
import { overviewRouter } from './routers/overview.router';
import { costsRouter } from './routers/costs.router';
import { policiesRouter } from './routers/policies.router';
import { runsRouter } from './routers/runs.router';
import { schedulesRouter } from './routers/schedules.router';
import { secretsRouter } from './routers/secrets.router';
import { skillsRouter } from './routers/skills.router';
import { sessionsRouter } from './routers/sessions.router';
import { systemRouter } from './routers/system.router';
import { teamsRouter } from './routers/teams.router';
import { tokensRouter } from './routers/tokens.router';
import { triggersRouter } from './routers/triggers.router';
import { uploadsRouter } from './routers/uploads.router';
import { webhooksRouter } from './routers/webhooks.router';

export const appRouter = createRouter({
  me: meProcedure,
  account: accountRouter,
  teams: teamsRouter,
  invitations: invitationsRouter,
  tokens: tokensRouter,
  agents: agentsRouter,
  runs: runsRouter,
  approvals: approvalsRouter,
  sessions: sessionsRouter,
  policies: policiesRouter,
  endpoints: endpointsRouter,
  audit: auditRouter,
  graphs: graphsRouter,
  system: systemRouter,
  mcp: mcpRouter,
  costs: costsRouter,
  overview: overviewRouter,
  secrets: secretsRouter,
  webhooks: webhooksRouter,
  uploads: uploadsRouter,
  skills: skillsRouter,
  schedules: schedulesRouter,
  triggers: triggersRouter,
});

export type AppRouter = typeof appRouter;
