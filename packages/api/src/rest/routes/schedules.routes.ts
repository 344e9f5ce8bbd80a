import type { ScheduleRecord, ScheduleTickRecord } from '@looplane/db';
import type { z } from 'zod';
import { defineRoute, type RestRoute } from '../rest-route';
import type { runStatus } from '../schemas/runs.schemas';
import {
  createScheduleBody,
  getScheduleQuery,
  schedule,
  scheduleDeleted,
  scheduleDetail,
  scheduleIdParams,
  scheduleList,
  scheduleRunStarted,
  updateScheduleBody,
} from '../schemas/schedules.schemas';

const scheduleParams = { scheduleId: 'cmexampleid0000000000000' };

/**
 * A stored schedule as the document describes it. Its budget and workspace were checked by the
 * procedure's input schema before they were stored, and a tick's run status is a run status, so
 * the narrowing here states what the store holds.
 */
const restSchedule = (record: ScheduleRecord) => ({
  ...record,
  budget: record.budget as z.input<typeof schedule>['budget'],
  workspace: record.workspace as z.input<typeof schedule>['workspace'],
});
const restTick = (tick: ScheduleTickRecord) => ({ ...tick, runStatus: tick.runStatus as z.infer<typeof runStatus> | null });

export const scheduleRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/schedules',
    operationId: 'listSchedules',
    summary: 'List schedules',
    description: 'The team’s schedules, each with its next fire time (null while paused).',
    tag: 'schedules',
    procedure: 'schedules.list',
    response: scheduleList,
    responseDescription: 'The schedules, by name',
    example: {},
    handle: async ({ caller, teamId }) => (await caller.schedules.list({ teamId })).map(restSchedule),
  }),

  defineRoute({
    method: 'POST',
    path: '/schedules',
    operationId: 'createSchedule',
    summary: 'Create a schedule',
    description:
      'Runs an agent (`agentId`) or a swarm graph (`graphId`) on a `cron` (5 fields, or 6 with seconds first, read in the IANA `timezone`) or ' +
      '`everySeconds`, with a goal that may use `{{scheduledAt}}`, and the `budget` and `workspace` of `POST /runs`. The workers fire each tick exactly ' +
      'once. `overlap` says what a tick does while the previous run is unfinished (skip, queue, cancel_previous); `catchUp` what ticks missed while ' +
      'no worker ran do (none, or the latest one); `pauseAfterFailures` failed runs in a row pause it. An unknown agent or graph is 404; a name ' +
      'the team already uses is 409.',
    tag: 'schedules',
    procedure: 'schedules.create',
    body: createScheduleBody,
    response: schedule,
    status: 201,
    responseDescription: 'The schedule, with its first tick in `nextFireAt`',
    problems: [404, 409],
    example: {
      body: { name: 'nightly-triage', agentId: 'cmexampleagent0000000000', cron: '0 6 * * 1-5', timezone: 'Europe/Berlin', goal: 'Triage the inbox' },
    },
    handle: async ({ caller, teamId, body }) => restSchedule(await caller.schedules.create({ teamId, ...body })),
  }),

  defineRoute({
    method: 'GET',
    path: '/schedules/{scheduleId}',
    operationId: 'getSchedule',
    summary: 'Get a schedule and its ticks',
    description: 'The schedule and its latest ticks, newest first: each run started (with its status now), tick skipped or tick failed, and why.',
    tag: 'schedules',
    procedure: 'schedules.get',
    params: scheduleIdParams,
    query: getScheduleQuery,
    response: scheduleDetail,
    responseDescription: 'The schedule and its latest ticks',
    problems: [404],
    example: { params: scheduleParams, query: { ticks: 20 } },
    handle: async ({ caller, teamId, params, query }) => {
      const found = await caller.schedules.get({ teamId, scheduleId: params.scheduleId, ...(query.ticks !== undefined ? { ticks: query.ticks } : {}) });
      return { ...restSchedule(found), ticks: found.ticks.map(restTick) };
    },
  }),

  defineRoute({
    method: 'PATCH',
    path: '/schedules/{scheduleId}',
    operationId: 'updateSchedule',
    summary: 'Change a schedule',
    description:
      'Changes the given fields; `null` clears `cron`, `everySeconds`, `agentId`, `graphId` or `workspace` to switch to the other. A new timing ' +
      'starts from the next tick after now. Pausing and resuming have routes of their own.',
    tag: 'schedules',
    procedure: 'schedules.update',
    params: scheduleIdParams,
    body: updateScheduleBody,
    response: schedule,
    responseDescription: 'The changed schedule',
    problems: [404, 409],
    example: { params: scheduleParams, body: { cron: '0 7 * * 1-5' } },
    handle: async ({ caller, teamId, params, body }) => restSchedule(await caller.schedules.update({ teamId, scheduleId: params.scheduleId, ...body })),
  }),

  defineRoute({
    method: 'DELETE',
    path: '/schedules/{scheduleId}',
    operationId: 'deleteSchedule',
    summary: 'Delete a schedule',
    description: 'The schedule and its ticks go; its runs stay, no longer linked to it.',
    tag: 'schedules',
    procedure: 'schedules.delete',
    params: scheduleIdParams,
    response: scheduleDeleted,
    responseDescription: 'The schedule was deleted',
    problems: [404],
    example: { params: scheduleParams },
    handle: async ({ caller, teamId, params }) => {
      await caller.schedules.delete({ teamId, scheduleId: params.scheduleId });
      return { id: params.scheduleId, deleted: true as const };
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/schedules/{scheduleId}/pause',
    operationId: 'pauseSchedule',
    summary: 'Pause a schedule',
    description: 'Waits for a tick in progress, then stops: once it answers, no further run of the schedule starts. Pausing a paused schedule changes nothing.',
    tag: 'schedules',
    procedure: 'schedules.pause',
    params: scheduleIdParams,
    response: schedule,
    responseDescription: 'The schedule, paused (`enabled: false`, `nextFireAt: null`)',
    problems: [404],
    example: { params: scheduleParams },
    handle: async ({ caller, teamId, params }) => restSchedule(await caller.schedules.pause({ teamId, scheduleId: params.scheduleId })),
  }),

  defineRoute({
    method: 'POST',
    path: '/schedules/{scheduleId}/resume',
    operationId: 'resumeSchedule',
    summary: 'Resume a schedule',
    description: 'Fires again from the next tick after now (ticks missed while paused are not made up) and clears the failure streak.',
    tag: 'schedules',
    procedure: 'schedules.resume',
    params: scheduleIdParams,
    response: schedule,
    responseDescription: 'The schedule, enabled, with its next tick',
    problems: [404],
    example: { params: scheduleParams },
    handle: async ({ caller, teamId, params }) => restSchedule(await caller.schedules.resume({ teamId, scheduleId: params.scheduleId })),
  }),

  defineRoute({
    method: 'POST',
    path: '/schedules/{scheduleId}/run',
    operationId: 'runScheduleNow',
    summary: 'Run a schedule now',
    description:
      'Starts the schedule’s run now, as you (paused or not, whatever its overlap); its next tick stays as it was. Refused as `POST /runs` would ' +
      'refuse it: an archived agent, the policy, the team’s limits (429 with `Retry-After`).',
    tag: 'schedules',
    procedure: 'schedules.runNow',
    params: scheduleIdParams,
    response: scheduleRunStarted,
    status: 201,
    responseDescription: 'The run was created (queued)',
    problems: [404, 412, 429],
    example: { params: scheduleParams },
    handle: ({ caller, teamId, params }) => caller.schedules.runNow({ teamId, scheduleId: params.scheduleId }),
  }),
];
