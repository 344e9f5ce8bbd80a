import { createRouter, teamProcedure } from '../trpc';
import { exportAudit, listAudit, verifyAudit } from '../services/audit.service';
import { listAuditInput } from './audit.schema';

/**
 * The team's tamper-evident audit log. Admin only: it names every member's actions and IPs.
 * Reading, verifying and exporting change nothing, so they write no audit rows themselves.
 */
export const auditRouter = createRouter({
  list: teamProcedure('admin')
    .input(listAuditInput)
    .query(({ ctx, input }) => listAudit(ctx.db, ctx.teamId, input)),

  verify: teamProcedure('admin').query(({ ctx }) => verifyAudit(ctx.db, ctx.teamId)),

  export: teamProcedure('admin').query(({ ctx }) => exportAudit(ctx.db, ctx.teamId)),
});
