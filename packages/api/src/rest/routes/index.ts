import type { RestRoute } from '../rest-route';
import { agentRoutes } from './agents.routes';
import { approvalRoutes } from './approvals.routes';
import { auditRoutes } from './audit.routes';
import { graphRoutes } from './graphs.routes';
import { mcpServerRoutes } from './mcp-servers.routes';
import { meRoutes } from './me.routes';
import { runRoutes } from './runs.routes';
import { scheduleRoutes } from './schedules.routes';
import { sessionRoutes } from './sessions.routes';
import { skillRoutes } from './skills.routes';
import { tokenRoutes } from './tokens.routes';
import { triggerRoutes } from './triggers.routes';
import { uploadRoutes } from './uploads.routes';

/**
 * Every operation of `/api/v1`, in document order. The HTTP handler, the OpenAPI document and the
 * tests walk this one table, so an operation cannot be served without being documented.
 */
export const restRoutes: readonly RestRoute[] = [
  ...meRoutes,
  ...runRoutes,
  ...approvalRoutes,
  ...agentRoutes,
  ...graphRoutes,
  ...sessionRoutes,
  ...auditRoutes,
  ...tokenRoutes,
  ...mcpServerRoutes,
  ...uploadRoutes,
  ...skillRoutes,
  ...scheduleRoutes,
  ...triggerRoutes,
];
