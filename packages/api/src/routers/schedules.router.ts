import { createRouter, teamProcedure } from '../trpc';
import {
  createSchedule,
  editSchedule,
  getSchedule,
  listTeamSchedules,
  removeSchedule,
  runScheduleNow,
  setScheduleEnabled,
} from '../services/schedules.service';
import { createScheduleInput, getScheduleInput, scheduleRefInput, updateScheduleInput } from './schedules.schema';

/**
 * Schedules: an agent or graph run on a cron (in an IANA time zone) or every N seconds, fired by
 * the workers exactly once per tick. Reads are viewer+, changes operator+ (as runs: a schedule
 * starts runs). Every change leaves an audit row.
 */
export const schedulesRouter = createRouter({
  list: teamProcedure('viewer').query(({ ctx }) => listTeamSchedules(ctx.db, ctx.teamId)),

  get: teamProcedure('viewer')
    .input(getScheduleInput)
    .query(({ ctx, input }) => getSchedule(ctx.db, ctx.teamId, input.scheduleId, input.ticks)),

  create: teamProcedure('operator')
    .input(createScheduleInput)
    .mutation(({ ctx, input }) => createSchedule(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('operator')
    .input(updateScheduleInput)
    .mutation(({ ctx, input }) => editSchedule(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  pause: teamProcedure('operator')
    .input(scheduleRefInput)
    .mutation(({ ctx, input }) => setScheduleEnabled(ctx.db, ctx.actor, ctx.teamId, input.scheduleId, false, ctx.ip)),

  resume: teamProcedure('operator')
    .input(scheduleRefInput)
    .mutation(({ ctx, input }) => setScheduleEnabled(ctx.db, ctx.actor, ctx.teamId, input.scheduleId, true, ctx.ip)),

  delete: teamProcedure('operator')
    .input(scheduleRefInput)
    .mutation(({ ctx, input }) => removeSchedule(ctx.db, ctx.actor, ctx.teamId, input.scheduleId, ctx.ip)),

  runNow: teamProcedure('operator')
    .input(scheduleRefInput)
    .mutation(({ ctx, input }) => runScheduleNow(ctx, ctx.actor, ctx.teamId, input.scheduleId, ctx.ip)),
});
