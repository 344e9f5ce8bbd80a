import {
  appendAudit,
  deleteSchedule,
  insertSchedule,
  listScheduleTicks,
  listSchedules,
  lockSchedule,
  recordScheduleTick,
  scheduleForTeam,
  updateSchedule,
  type AuditEntry,
  type Db,
  type ScheduleFields,
  type ScheduleRecord,
  type ScheduleTickRecord,
  type Tx,
} from '@looplane/db';
import type { WorkspaceSource } from '@looplane/engine';
import { AppError } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import { scheduleChoicesSchema, type CreateScheduleInput, type UpdateScheduleInput } from '../routers/schedules.schema';
import { getGraph } from './graphs.service';
import { newId } from '@looplane/db';
import { agentLookup } from './run-agent-lookup';
import { checkWorkspaceDefault } from './run-workspace';
import type { RunDeps } from './runs.service';
import { createTickRun } from './schedule-fire.service';
import { timingOf } from './schedule-run-input';
import { nextFireAfter } from './schedule-timing';
import { queryableOf } from '@looplane/db';

/**
 * A team's schedules: the API side (create, read, edit, pause, resume, delete, run now). Every
 * change commits with its audit row. The worker fires them (schedule-fire.service.ts).
 */

const isUniqueViolation = (error: unknown) => error instanceof Error && /23505|unique constraint/i.test(error.message);

/** The agent or graph exists in the team (and is not archived), and the workspace passes the checks a run's would. */
async function checkTargets(db: Db, teamId: string, fields: Pick<ScheduleFields, 'agentId' | 'graphId' | 'workspace'>): Promise<void> {
  if (fields.agentId && !(await agentLookup(db).find(teamId, fields.agentId))) throw new AppError('NOT_FOUND', 'No such agent in this team');
  if (fields.graphId) await getGraph(db, teamId, fields.graphId);
  if (fields.workspace) await checkWorkspaceDefault(db, teamId, fields.workspace as WorkspaceSource);
}

const nextFire = (fields: Pick<ScheduleFields, 'cron' | 'everySeconds' | 'timezone'>, now: Date) => nextFireAfter(timingOf(fields), now);

function audit(
  actor: PrincipalActor,
  teamId: string,
  ip: string | null,
  action: string,
  schedule: ScheduleRecord,
  data: Record<string, unknown> = {},
): AuditEntry {
  return { teamId, actor, ip, action, targetType: 'schedule', targetId: schedule.id, data: { name: schedule.name, ...data } };
}

/** Creates a schedule; its first tick is the first one after now (null while disabled). */
export async function createSchedule(db: Db, actor: PrincipalActor, teamId: string, input: CreateScheduleInput, ip: string | null): Promise<ScheduleRecord> {
  const fields: ScheduleFields = {
    name: input.name,
    agentId: input.agentId ?? null,
    graphId: input.graphId ?? null,
    cron: input.cron ?? null,
    everySeconds: input.everySeconds ?? null,
    timezone: input.timezone,
    goal: input.goal,
    budget: input.budget ?? {},
    workspace: input.workspace ?? null,
    overlap: input.overlap,
    catchUp: input.catchUp,
    enabled: input.enabled,
    pauseAfterFailures: input.pauseAfterFailures,
    nextFireAt: null,
  };
  await checkTargets(db, teamId, fields);
  if (fields.enabled) fields.nextFireAt = nextFire(fields, new Date());
  return db.$transaction(async (tx) => {
    const created = await insertSchedule(queryableOf(tx), { ...fields, id: newId(), teamId, createdById: actor.userId });
    if (!created) throw new AppError('CONFLICT', `The team already has a schedule named ${input.name}`);
    await appendAudit(
      tx,
      audit(actor, teamId, ip, 'schedule.created', created, {
        agentId: created.agentId,
        graphId: created.graphId,
        cron: created.cron,
        everySeconds: created.everySeconds,
      }),
    );
    return created;
  });
}

/** The team's schedules, each with its next fire time. */
export function listTeamSchedules(db: Db, teamId: string): Promise<ScheduleRecord[]> {
  return listSchedules(queryableOf(db), teamId);
}

/** A schedule and its latest ticks (runs started with their status, skips, failures). */
export async function getSchedule(db: Db, teamId: string, scheduleId: string, ticks: number): Promise<ScheduleRecord & { ticks: ScheduleTickRecord[] }> {
  const schedule = await scheduleForTeam(queryableOf(db), teamId, scheduleId);
  if (!schedule) throw new AppError('NOT_FOUND', 'No such schedule in this team');
  return { ...schedule, ticks: await listScheduleTicks(queryableOf(db), scheduleId, ticks) };
}

/** Locks the team's schedule (waiting for a tick in progress, so a change is never half-applied to one). */
async function locked(tx: Tx, teamId: string, scheduleId: string): Promise<ScheduleRecord> {
  const schedule = await lockSchedule(queryableOf(tx), teamId, scheduleId);
  if (!schedule) throw new AppError('NOT_FOUND', 'No such schedule in this team');
  return schedule;
}

const fieldsOf = (s: ScheduleRecord): ScheduleFields => ({
  name: s.name,
  agentId: s.agentId,
  graphId: s.graphId,
  cron: s.cron,
  everySeconds: s.everySeconds,
  timezone: s.timezone,
  goal: s.goal,
  budget: s.budget,
  workspace: s.workspace,
  overlap: s.overlap,
  catchUp: s.catchUp,
  enabled: s.enabled,
  pauseAfterFailures: s.pauseAfterFailures,
  nextFireAt: s.nextFireAt,
});

/** Edits a schedule: a new timing starts from the next tick after now. */
export async function editSchedule(db: Db, actor: PrincipalActor, teamId: string, input: UpdateScheduleInput, ip: string | null): Promise<ScheduleRecord> {
  const { scheduleId, ...changes } = input;
  const current = await scheduleForTeam(queryableOf(db), teamId, scheduleId);
  if (!current) throw new AppError('NOT_FOUND', 'No such schedule in this team');
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<ScheduleFields>;
  const merged: ScheduleFields = { ...fieldsOf(current), ...given };
  const choices = scheduleChoicesSchema.safeParse(merged);
  if (!choices.success) throw new AppError('BAD_REQUEST', choices.error.issues[0]?.message ?? 'invalid schedule');
  if ('agentId' in given || 'graphId' in given || 'workspace' in given) await checkTargets(db, teamId, merged);
  const retimed = 'cron' in given || 'everySeconds' in given || 'timezone' in given;
  return db.$transaction(async (tx) => {
    const schedule = await locked(tx, teamId, scheduleId);
    const fields = { ...merged, enabled: schedule.enabled, nextFireAt: schedule.nextFireAt };
    if (retimed && schedule.enabled) fields.nextFireAt = nextFire(fields, new Date());
    try {
      const updated = await updateSchedule(queryableOf(tx), teamId, scheduleId, fields, { pausedReason: schedule.pausedReason, resetFailures: false });
      if (!updated) throw new AppError('NOT_FOUND', 'No such schedule in this team');
      await appendAudit(tx, audit(actor, teamId, ip, 'schedule.updated', updated, { changed: Object.keys(given) }));
      return updated;
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', `The team already has a schedule named ${merged.name}`);
      throw error;
    }
  });
}

/**
 * Pauses or resumes a schedule. A pause waits for a tick in progress (the row's lock) and clears
 * the next fire time, so once it returns no further run starts. A resume starts from the next
 * tick after now (ticks missed while paused are not made up) and clears the failure streak.
 */
export async function setScheduleEnabled(
  db: Db,
  actor: PrincipalActor,
  teamId: string,
  scheduleId: string,
  enabled: boolean,
  ip: string | null,
): Promise<ScheduleRecord> {
  return db.$transaction(async (tx) => {
    const schedule = await locked(tx, teamId, scheduleId);
    if (schedule.enabled === enabled) return schedule;
    const fields = { ...fieldsOf(schedule), enabled, nextFireAt: enabled ? nextFire(schedule, new Date()) : null };
    const updated = await updateSchedule(queryableOf(tx), teamId, scheduleId, fields, { pausedReason: null, resetFailures: enabled });
    if (!updated) throw new AppError('NOT_FOUND', 'No such schedule in this team');
    await appendAudit(tx, audit(actor, teamId, ip, enabled ? 'schedule.resumed' : 'schedule.paused', updated));
    return updated;
  });
}

/** Deletes a schedule and its ticks; its runs stay (no longer linked). */
export async function removeSchedule(db: Db, actor: PrincipalActor, teamId: string, scheduleId: string, ip: string | null): Promise<{ deleted: true }> {
  return db.$transaction(async (tx) => {
    const schedule = await locked(tx, teamId, scheduleId);
    await deleteSchedule(queryableOf(tx), teamId, scheduleId);
    await appendAudit(tx, audit(actor, teamId, ip, 'schedule.deleted', schedule));
    return { deleted: true as const };
  });
}

/**
 * Starts the schedule's run now (a tick at this moment, whatever the timing, paused or not,
 * ignoring overlap), as the caller; the next tick stays as it was. A refusal (the agent archived,
 * the policy, the team's limits) is the caller's error, as with runs.create.
 */
export async function runScheduleNow(deps: RunDeps, actor: PrincipalActor, teamId: string, scheduleId: string, ip: string | null): Promise<{ runId: string }> {
  const schedule = await scheduleForTeam(queryableOf(deps.db), teamId, scheduleId);
  if (!schedule) throw new AppError('NOT_FOUND', 'No such schedule in this team');
  const at = new Date();
  // Runs as the caller: the run's creator and audit actor are the person who asked.
  const { runId } = await createTickRun(deps, schedule, at, actor, actor, ip);
  await recordScheduleTick(queryableOf(deps.db), { id: newId(), scheduleId, scheduledAt: at, outcome: 'started', reason: 'run now', runId });
  return { runId };
}
