import { z } from 'zod';
import { createScheduleInput, updateScheduleInput } from '../../routers/schedules.schema';
import { id, intQuery, timestamp } from './common.schemas';
import { runStatus } from './runs.schemas';
import { workspaceSource } from './workspace.schemas';

export const scheduleIdParams = z.strictObject({ scheduleId: id });

/** `GET /schedules/{scheduleId}`: how many of its latest ticks to list. */
export const getScheduleQuery = z
  .strictObject({
    ticks: intQuery(1, 500).optional().meta({ description: 'Its latest ticks to list, newest first (default 100)' }),
  })
  .meta({ id: 'GetScheduleQuery' });

/** `POST /schedules`: the procedure's own input (agent or graph, cron or interval), strict. */
export const createScheduleBody = createScheduleInput.strict().meta({ id: 'CreateScheduleRequest' });

/** `PATCH /schedules/{scheduleId}`: the fields to change; `null` clears cron, everySeconds or workspace. */
export const updateScheduleBody = updateScheduleInput.omit({ scheduleId: true }).strict().meta({ id: 'UpdateScheduleRequest' });

const overlap = z
  .enum(['skip', 'queue', 'cancel_previous'])
  .meta({ id: 'ScheduleOverlap', description: 'A tick while the previous run is unfinished: skip it, start anyway (queue), or cancel the previous run first' });
const catchUp = z.enum(['none', 'latest']).meta({ id: 'ScheduleCatchUp', description: 'Ticks missed while no worker ran: none, or only the latest one' });

/** The budget each run of the schedule gets (as `POST /runs` takes it); `{}`: unlimited. */
const scheduleBudget = z
  .strictObject({
    tokens: z.int().optional(),
    costMicros: z.int().optional(),
    toolCalls: z.int().optional(),
    wallMs: z.int().optional(),
    onExceed: z.enum(['wait', 'fail']).optional(),
  })
  .meta({ id: 'ScheduleBudget' });

export const schedule = z
  .strictObject({
    id,
    teamId: id,
    name: z.string(),
    agentId: id.nullable().meta({ description: 'The agent each tick runs (or graphId)' }),
    graphId: id.nullable().meta({ description: 'The swarm graph each tick runs (or agentId)' }),
    cron: z.string().nullable().meta({ description: '5 fields (minute first) or 6 (seconds first), read in `timezone`; or everySeconds' }),
    everySeconds: z.int().nullable().meta({ description: 'A tick every this many seconds (aligned to the Unix epoch); or cron' }),
    timezone: z.string().meta({ description: 'The IANA time zone the cron is read in' }),
    goal: z.string().meta({ description: 'The runs’ goal; `{{scheduledAt}}` becomes the tick’s time (ISO, UTC)' }),
    budget: scheduleBudget,
    workspace: workspaceSource.nullable().meta({ description: 'Where each run’s files come from; null: the agent’s default' }),
    overlap,
    catchUp,
    enabled: z.boolean().meta({ description: 'false: paused (no tick fires)' }),
    pauseAfterFailures: z.int().meta({ description: 'This many failed runs in a row pause the schedule (webhook `schedule.paused`)' }),
    consecutiveFailures: z.int(),
    pausedReason: z.string().nullable().meta({ description: 'Why it paused itself (failed runs in a row); null when a person paused it or it runs' }),
    nextFireAt: timestamp.nullable().meta({ description: 'The next tick; null while paused' }),
    lastFiredAt: timestamp.nullable().meta({ description: 'The latest tick that started a run' }),
    createdById: id.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Schedule' });

export const scheduleList = z.array(schedule).meta({ id: 'ScheduleList', description: 'The team’s schedules, by name' });

const scheduleTick = z
  .strictObject({
    id,
    scheduledAt: timestamp.meta({ description: 'The tick’s time' }),
    outcome: z.enum(['started', 'skipped', 'failed']),
    reason: z.string().nullable().meta({ description: 'Why it was skipped or failed (or `run now`)' }),
    runId: id.nullable(),
    runStatus: runStatus.nullable().meta({ description: 'The status of the tick’s run now' }),
  })
  .meta({ id: 'ScheduleTick' });

export const scheduleDetail = schedule
  .extend({ ticks: z.array(scheduleTick).meta({ description: 'Its latest ticks, newest first: runs started, skips, failures' }) })
  .meta({ id: 'ScheduleDetail' });

export const scheduleDeleted = z
  .strictObject({ id, deleted: z.literal(true) })
  .meta({ id: 'ScheduleDeleted', description: 'The schedule and its ticks are gone; its runs stay, no longer linked' });

export const scheduleRunStarted = z.strictObject({ runId: id }).meta({ id: 'ScheduleRunStarted' });
