// Schedules: the team's recurring runs (the API's reads and writes) and their firing (the
// worker's claim of a due tick, the tick's record, the failure streak that pauses a schedule).
export {
  insertSchedule,
  updateSchedule,
  scheduleForTeam,
  listSchedules,
  deleteSchedule,
  type ScheduleRecord,
  type ScheduleFields,
  type ScheduleOverlap,
  type ScheduleCatchUp,
} from './schedules.repository';
export {
  lockSchedule,
  runForTick,
  unfinishedScheduleRuns,
  recordScheduleTick,
  listScheduleTicks,
  type TickOutcome,
  type ScheduleTickRecord,
} from './schedule-ticks.repository';
export {
  lockDueSchedules,
  recordScheduleTicks,
  advanceSchedules,
  type ScheduleTickRow,
  type ScheduleStep,
} from './schedule-batch.repository';
export { earliestScheduleFireAt } from './schedule-wakeup.repository';
export { settleScheduleFailures, emitSchedulePaused, type SelfPausedSchedule } from './schedule-failures.repository';
