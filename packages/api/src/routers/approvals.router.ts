import { createRouter, teamProcedure } from '../trpc';
import { getApproval, listApprovals } from '../services/approvals-query.service';
import { decideManyApprovals } from '../services/approvals-bulk.service';
import { decideApproval } from '../services/approvals.service';
import { approvalRefInput, decideInput, decideManyInput, listApprovalsInput } from './approvals.schema';

/**
 * Approvals: the team's inbox of tool calls its policy holds for a person. Reads are viewer+;
 * deciding is approver+ (an approval may need admin, and four-eyes keeps a run's creator out).
 * The API decides the row and wakes the run; only the worker appends `approval.decided`.
 */
export const approvalsRouter = createRouter({
  list: teamProcedure('viewer')
    .input(listApprovalsInput)
    .query(({ ctx, input }) => listApprovals(ctx.db, ctx.teamId, input, { role: ctx.role, userId: ctx.actor.userId })),

  get: teamProcedure('viewer')
    .input(approvalRefInput)
    .query(({ ctx, input }) => getApproval(ctx.db, ctx.teamId, input.approvalId, { role: ctx.role, userId: ctx.actor.userId })),

  decide: teamProcedure('approver')
    .input(decideInput)
    .mutation(({ ctx, input }) => decideApproval(ctx, ctx.actor, { role: ctx.role, userId: ctx.actor.userId }, ctx.teamId, input, ctx.ip)),

  decideMany: teamProcedure('approver')
    .input(decideManyInput)
    .mutation(({ ctx, input }) => decideManyApprovals(ctx, ctx.actor, { role: ctx.role, userId: ctx.actor.userId }, ctx.teamId, input, ctx.ip)),
});
