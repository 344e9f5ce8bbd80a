import { createRouter, teamProcedure } from '../trpc';
import { promoteSession, resumeSession } from '../services/sessions-control.service';
import { callDiff, sessionChanges } from '../services/sessions-changes.service';
import { diffSessions } from '../services/sessions-diff.service';
import { sessionEvents } from '../services/sessions-events.service';
import { sessionFiles } from '../services/sessions-files.service';
import { sessionPatch } from '../services/sessions-patch.service';
import { forkSession } from '../services/sessions-fork.service';
import { replaySession } from '../services/sessions-replay.service';
import { restoreSession } from '../services/sessions-restore.service';
import { sessionTree } from '../services/sessions-tree.service';
import {
  callDiffInput,
  diffSessionsInput,
  forkSessionInput,
  replaySessionInput,
  sessionEventsInput,
  sessionFilesInput,
  sessionPatchInput,
  promoteSessionInput,
  resumeSessionInput,
  restoreSessionInput,
  sessionChangesInput,
  sessionTreeInput,
} from './sessions.schema';

/**
 * Session trees: a run's branches, forked at any committed event (conversation and workspace
 * together), replayed on another endpoint or prompt, resumed, compared, browsed (files at any event, the calls that changed them and each call's diff), exported as a patch series, restored to
 * an earlier event's files and promoted to the main line. Reads are viewer+, changes
 * operator+. Like every router, it records intent and wakes the worker; only the worker appends.
 */
export const sessionsRouter = createRouter({
  tree: teamProcedure('viewer')
    .input(sessionTreeInput)
    .query(({ ctx, input }) => sessionTree(ctx.db, ctx.teamId, input.runId)),

  events: teamProcedure('viewer')
    .input(sessionEventsInput)
    .query(({ ctx, input }) => sessionEvents(ctx.db, ctx.teamId, input.sessionId, input.after, input.limit)),

  fork: teamProcedure('operator')
    .input(forkSessionInput)
    .mutation(({ ctx, input }) => forkSession(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),

  replay: teamProcedure('operator')
    .input(replaySessionInput)
    .mutation(({ ctx, input }) => replaySession(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),

  resume: teamProcedure('operator')
    .input(resumeSessionInput)
    .mutation(({ ctx, input }) => resumeSession(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),

  restore: teamProcedure('operator')
    .input(restoreSessionInput)
    .mutation(({ ctx, input }) => restoreSession(ctx, ctx.actor, ctx.teamId, input, ctx.ip)),

  diff: teamProcedure('viewer')
    .input(diffSessionsInput)
    .query(({ ctx, input }) => diffSessions(ctx, ctx.teamId, input.a, input.b)),

  files: teamProcedure('viewer')
    .input(sessionFilesInput)
    .query(({ ctx, input }) => sessionFiles(ctx, ctx.teamId, input)),

  changes: teamProcedure('viewer')
    .input(sessionChangesInput)
    .query(({ ctx, input }) => sessionChanges(ctx, ctx.teamId, input.sessionId)),

  callDiff: teamProcedure('viewer')
    .input(callDiffInput)
    .query(({ ctx, input }) => callDiff(ctx, ctx.teamId, input)),

  /** What the branch changed since its seeded files (or event `base`), as a `git format-patch` series. */
  patch: teamProcedure('viewer')
    .input(sessionPatchInput)
    .query(({ ctx, input }) => sessionPatch(ctx, ctx.teamId, input)),

  promote: teamProcedure('operator')
    .input(promoteSessionInput)
    .mutation(({ ctx, input }) => promoteSession(ctx, ctx.actor, ctx.teamId, input.sessionId, ctx.ip)),
});
