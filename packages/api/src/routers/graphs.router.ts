import { createRouter, teamProcedure } from '../trpc';
import { raiseEdgeBudget, runGraphView } from '../services/graph-budget.service';
import { createGraph, getGraph, listGraphs, updateGraph } from '../services/graphs.service';
import { createGraphInput, getGraphInput, raiseEdgeBudgetInput, runGraphInput, updateGraphInput } from './graphs.schema';

/**
 * Swarm graphs: agent templates as nodes, governed edges between them. Definitions are operator+
 * (every update is a new version), reads viewer+, raising an edge's budget in a run approver+.
 * Runs of a graph start with `runs.create({ graphId })`.
 */
export const graphsRouter = createRouter({
  list: teamProcedure('viewer').query(({ ctx }) => listGraphs(ctx.db, ctx.teamId)),

  get: teamProcedure('viewer')
    .input(getGraphInput)
    .query(({ ctx, input }) => getGraph(ctx.db, ctx.teamId, input.graphId, input.version)),

  create: teamProcedure('operator')
    .input(createGraphInput)
    .mutation(({ ctx, input }) => createGraph(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('operator')
    .input(updateGraphInput)
    .mutation(({ ctx, input }) => updateGraph(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  /** The live graph of a graph run: node sessions and per-edge spend against budget. */
  run: teamProcedure('viewer')
    .input(runGraphInput)
    .query(({ ctx, input }) => runGraphView(ctx.db, ctx.teamId, input.runId)),

  raiseEdgeBudget: teamProcedure('approver')
    .input(raiseEdgeBudgetInput)
    .mutation(({ ctx, input }) => raiseEdgeBudget(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),
});
