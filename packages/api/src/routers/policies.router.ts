import { createRouter, teamProcedure } from '../trpc';
import { simulateCall } from '../services/policies-redecide';
import { diffPolicyVersions, getActivePolicy, listPolicyVersions, savePolicy, validatePolicyText } from '../services/policies.service';
import { backtestPolicy } from '../services/policy-backtest.service';
import { promoteShadow, setShadow, shadowDisagreements } from '../services/policy-shadow.service';
import {
  backtestPolicyInput,
  diffPolicyInput,
  savePolicyInput,
  setShadowInput,
  shadowDisagreementsInput,
  simulatePolicyInput,
  validatePolicyInput,
} from './policies.schema';

/**
 * The team's zero-trust policy: every saved version is kept (the database refuses to change one)
 * and exactly one is active. Everyone in the team may read it and try calls against it (the
 * simulator); only admins save a new version.
 */
export const policiesRouter = createRouter({
  get: teamProcedure('viewer').query(({ ctx }) => getActivePolicy(ctx.db, ctx.teamId)),

  versions: teamProcedure('viewer').query(({ ctx }) => listPolicyVersions(ctx.db, ctx.teamId)),

  save: teamProcedure('admin')
    .input(savePolicyInput)
    .mutation(({ ctx, input }) => savePolicy(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  // validate and simulate change nothing, but carry a whole draft document: POST (mutation) keeps
  // it out of the URL, whose length servers cap.
  validate: teamProcedure('viewer')
    .input(validatePolicyInput)
    .mutation(({ input }) => validatePolicyText(input.document)),

  simulate: teamProcedure('viewer')
    .input(simulatePolicyInput)
    .mutation(async ({ ctx, input }) => {
      const document = input.document ?? (await getActivePolicy(ctx.db, ctx.teamId)).document;
      return { draft: input.document !== undefined, ...simulateCall(document, input.tool, input.args) };
    }),

  // Every call recorded in the window decided again under a draft: reads only what viewers see
  // anyway (the runs' calls and decisions). The same run with progress: POST /api/teams/{id}/policy-backtest.
  backtest: teamProcedure('viewer')
    .input(backtestPolicyInput)
    .mutation(({ ctx, input }) => backtestPolicy(ctx.db, ctx.teamId, input)),

  diff: teamProcedure('viewer')
    .input(diffPolicyInput)
    .query(({ ctx, input }) => diffPolicyVersions(ctx.db, ctx.teamId, input.from, input.to)),

  // The shadow: a saved version every live call is also decided under, never enforced.
  setShadow: teamProcedure('admin')
    .input(setShadowInput)
    .mutation(({ ctx, input }) => setShadow(ctx.db, ctx.actor, ctx.teamId, input.version, ctx.ip)),

  promoteShadow: teamProcedure('admin').mutation(({ ctx }) => promoteShadow(ctx.db, ctx.actor, ctx.teamId, ctx.ip)),

  shadowDisagreements: teamProcedure('viewer')
    .input(shadowDisagreementsInput)
    .query(({ ctx, input }) => shadowDisagreements(ctx.db, ctx.teamId, input)),
});
