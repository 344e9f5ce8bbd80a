import { createRouter, teamProcedure } from '../trpc';
import { cancelRun, raiseRunBudget, sendRunMessage } from '../services/run-control.service';
import { createRun } from '../services/run-create';
import { createGraphRun } from '../services/graph-run';
import { getRun, listRunEvents, listRuns } from '../services/runs-query.service';
import { createRunInput, listRunsInput, raiseBudgetInput, runEventsInput, runRefInput, sendMessageInput } from './runs.schema';

/**
 * Runs: start, watch, steer, stop. Writes are operator+ (raising a budget is approver+), reads
 * viewer+. The API records intent in Postgres and wakes the worker; only the worker appends events.
 */
export const runsRouter = createRouter({
  create: teamProcedure('operator')
    .input(createRunInput)
    .mutation(({ ctx, input }) =>
      input.graphId ? createGraphRun(ctx, ctx.actor, ctx.teamId, input, ctx.ip) : createRun(ctx, ctx.actor, ctx.teamId, input, ctx.ip),
    ),

  get: teamProcedure('viewer')
    .input(runRefInput)
    .query(({ ctx, input }) => getRun(ctx.db, ctx.teamId, input.runId)),

  list: teamProcedure('viewer')
    .input(listRunsInput)
    .query(({ ctx, input }) => listRuns(ctx.db, ctx.teamId, input)),

  events: teamProcedure('viewer')
    .input(runEventsInput)
    .query(({ ctx, input }) => listRunEvents(ctx.db, ctx.teamId, input.runId, input.after, input.limit)),

  cancel: teamProcedure('operator')
    .input(runRefInput)
    .mutation(({ ctx, input }) => cancelRun(ctx, ctx.actor, ctx.teamId, input.runId, ctx.ip)),

  sendMessage: teamProcedure('operator')
    .input(sendMessageInput)
    .mutation(({ ctx, input }) => sendRunMessage(ctx, ctx.actor, ctx.teamId, input.runId, input.text, ctx.ip)),

  raiseBudget: teamProcedure('approver')
    .input(raiseBudgetInput)
    .mutation(({ ctx, input }) => raiseRunBudget(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),
});
