import { createRouter, teamProcedure } from '../trpc';
import { getApproval, listApprovals } from '../services/approvals-query.service';
import { decideManyApprovals } from '../services/approvals-bulk.service';
import { decideApproval } from '../services/approvals.service';
import { approvalDiff } from '../services/approvals-diff.service';
import { approvalRefInput, decideInput, decideManyInput, listApprovalsInput } from './approvals.schema';

/**
 * Approvals: the team's inbox of tool calls its policy holds for a person. Reads are viewer+;
 * deciding is approver+ (an approval may need admin; four-eyes keeps out whoever gave an instruction
 * the call follows from: the run's creator, a fork's or a resume's author, a message's sender, an
 * editor of a call's arguments, the author of the agent template). An approver's edited call that
 * the policy still holds is asked again under four-eyes, for another approver (the worker does it:
 * apps/worker/src/runtime/edited-call-check.ts).
 * The API decides the row and wakes the run; only the worker appends `approval.decided`.
 */
export const approvalsRouter = createRouter({
  list: teamProcedure('viewer')
    .input(listApprovalsInput)
    .query(({ ctx, input }) => listApprovals(ctx.db, ctx.teamId, input, { role: ctx.role, userId: ctx.actor.userId })),

  get: teamProcedure('viewer')
    .input(approvalRefInput)
    .query(({ ctx, input }) => getApproval(ctx.db, ctx.teamId, input.approvalId, { role: ctx.role, userId: ctx.actor.userId })),

  /** What a held call changed (kind effect): the diff from its starting commit to its held result. */
  diff: teamProcedure('viewer')
    .input(approvalRefInput)
    .query(({ ctx, input }) => approvalDiff(ctx, ctx.teamId, input.approvalId)),

  decide: teamProcedure('approver')
    .input(decideInput)
    .mutation(({ ctx, input }) => decideApproval(ctx, ctx.actor, { role: ctx.role, userId: ctx.actor.userId }, ctx.teamId, input, ctx.ip)),

  decideMany: teamProcedure('approver')
    .input(decideManyInput)
    .mutation(({ ctx, input }) => decideManyApprovals(ctx, ctx.actor, { role: ctx.role, userId: ctx.actor.userId }, ctx.teamId, input, ctx.ip)),
});
