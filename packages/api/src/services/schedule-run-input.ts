import type { ScheduleRecord } from '@looplane/db';
import { AppError } from '@looplane/shared';
import { createRunInput, type CreateRunInput } from '../routers/runs.schema';
import { renderScheduledGoal, type ScheduleTiming } from './schedule-timing';

/** A stored schedule's timing. */
export function timingOf(schedule: Pick<ScheduleRecord, 'cron' | 'everySeconds' | 'timezone'>): ScheduleTiming {
  return schedule.everySeconds
    ? { everySeconds: schedule.everySeconds, timezone: schedule.timezone }
    : { cron: schedule.cron ?? '', timezone: schedule.timezone };
}

/**
 * The runs.create input of a tick's run: the schedule's agent or graph, budget and workspace, and
 * its goal with `{{scheduledAt}}` rendered. Parsed with runs.create's own schema, so a stored value
 * that no longer validates fails the tick with the same message a person would get.
 */
export function scheduleRunInput(schedule: ScheduleRecord, at: Date): CreateRunInput {
  const parsed = createRunInput.safeParse({
    ...(schedule.agentId ? { agentId: schedule.agentId } : {}),
    ...(schedule.graphId ? { graphId: schedule.graphId } : {}),
    goal: renderScheduledGoal(schedule.goal, at),
    ...(Object.keys(schedule.budget).length > 0 ? { budget: schedule.budget } : {}),
    ...(schedule.workspace ? { workspace: schedule.workspace } : {}),
  });
  if (!parsed.success) throw new AppError('BAD_REQUEST', `the schedule's run input no longer validates: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
