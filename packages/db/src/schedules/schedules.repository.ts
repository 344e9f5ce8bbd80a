import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { utcFromMs } from '../sql/epoch-ms';

/**
 * A team's schedules (`Schedule`): what the API reads and writes. Timestamps are read back as
 * epoch milliseconds (node-postgres and Prisma's raw queries then give the same values) and
 * written as epoch milliseconds too, so no time zone of a connection ever shifts them.
 */

export type ScheduleOverlap = 'skip' | 'queue' | 'cancel_previous';
export type ScheduleCatchUp = 'none' | 'latest';

/** The columns a create or an update writes (the counters and timestamps are the store's). */
export interface ScheduleFields {
  name: string;
  agentId: string | null;
  graphId: string | null;
  cron: string | null;
  everySeconds: number | null;
  timezone: string;
  goal: string;
  budget: Record<string, unknown>;
  workspace: unknown;
  overlap: ScheduleOverlap;
  catchUp: ScheduleCatchUp;
  enabled: boolean;
  pauseAfterFailures: number;
  nextFireAt: Date | null;
}

/** A schedule as stored: the written fields plus what the store keeps itself. */
export interface ScheduleRecord extends ScheduleFields {
  id: string;
  teamId: string;
  consecutiveFailures: number;
  pausedReason: string | null;
  lastFiredAt: Date | null;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const epoch = z.number().transform((ms) => new Date(ms));
const recordSchema = z
  .object({
    id: z.string(),
    teamId: z.string(),
    name: z.string(),
    agentId: z.string().nullable(),
    graphId: z.string().nullable(),
    cron: z.string().nullable(),
    everySeconds: z.number().nullable(),
    timezone: z.string(),
    goal: z.string(),
    budget: z.record(z.string(), z.unknown()),
    workspace: z.unknown(),
    overlap: z.enum(['skip', 'queue', 'cancel_previous']),
    catchUp: z.enum(['none', 'latest']),
    enabled: z.boolean(),
    pauseAfterFailures: z.number(),
    consecutiveFailures: z.number(),
    pausedReason: z.string().nullable(),
    nextFireAtMs: epoch.nullable(),
    lastFiredAtMs: epoch.nullable(),
    createdById: z.string().nullable(),
    createdAtMs: epoch,
    updatedAtMs: epoch,
  })
  .transform(({ nextFireAtMs, lastFiredAtMs, createdAtMs, updatedAtMs, ...row }) => ({
    ...row,
    workspace: row.workspace ?? null,
    nextFireAt: nextFireAtMs,
    lastFiredAt: lastFiredAtMs,
    createdAt: createdAtMs,
    updatedAt: updatedAtMs,
  }));

/** Parses a row selected with {@link SCHEDULE_COLUMNS}. */
export const parseSchedule = (row: unknown): ScheduleRecord => recordSchema.parse(row);

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
/** The columns of a schedule row, as {@link parseSchedule} reads them. */
export const SCHEDULE_COLUMNS = `
  id, "teamId", name, "agentId", "graphId", cron, "everySeconds", timezone, goal, budget, workspace, overlap::text AS overlap,
  "catchUp"::text AS "catchUp", enabled, "pauseAfterFailures", "consecutiveFailures", "pausedReason",
  ${ms('"nextFireAt"')} AS "nextFireAtMs", ${ms('"lastFiredAt"')} AS "lastFiredAtMs", "createdById",
  ${ms('"createdAt"')} AS "createdAtMs", ${ms('"updatedAt"')} AS "updatedAtMs"`;
const NOW = `(statement_timestamp() AT TIME ZONE 'UTC')`;

const fieldParams = {
  name: param.text,
  agent_id: param.nullableText,
  graph_id: param.nullableText,
  cron: param.nullableText,
  every_seconds: param.nullableInt,
  timezone: param.text,
  goal: param.text,
  budget: param.jsonb,
  workspace: param.nullableJsonb,
  overlap: param.text,
  catch_up: param.text,
  enabled: param.boolean,
  pause_after_failures: param.int,
  next_fire_at_ms: param.nullableBigint,
};
const bindFields = (f: ScheduleFields) => ({
  name: f.name,
  agent_id: f.agentId,
  graph_id: f.graphId,
  cron: f.cron,
  every_seconds: f.everySeconds,
  timezone: f.timezone,
  goal: f.goal,
  budget: JSON.stringify(f.budget),
  workspace: f.workspace === null || f.workspace === undefined ? null : JSON.stringify(f.workspace),
  overlap: f.overlap,
  catch_up: f.catchUp,
  enabled: f.enabled,
  pause_after_failures: f.pauseAfterFailures,
  next_fire_at_ms: f.nextFireAt?.getTime() ?? null,
});

const INSERT_SQL = namedQuery({
  name: 'looplane_schedule_insert_v1',
  params: { id: param.text, team_id: param.text, created_by_id: param.nullableText, ...fieldParams },
  text: `
INSERT INTO "Schedule" (id, "teamId", name, "agentId", "graphId", cron, "everySeconds", timezone, goal, budget, workspace, overlap, "catchUp",
                        enabled, "pauseAfterFailures", "nextFireAt", "createdById", "createdAt", "updatedAt")
VALUES (:id, :team_id, :name, :agent_id, :graph_id, :cron, :every_seconds, :timezone, :goal, :budget, :workspace,
        :overlap::"ScheduleOverlap", :catch_up::"ScheduleCatchUp", :enabled, :pause_after_failures,
        ${utcFromMs('next_fire_at_ms')}, :created_by_id, ${NOW}, ${NOW})
ON CONFLICT ("teamId", name) DO NOTHING
RETURNING ${SCHEDULE_COLUMNS}`,
});

/** Stores a new schedule; null (nothing written) when the team already has one of that name. */
export async function insertSchedule(
  db: Queryable,
  row: ScheduleFields & { id: string; teamId: string; createdById: string | null },
): Promise<ScheduleRecord | null> {
  const result = await db.query(INSERT_SQL.bind({ id: row.id, team_id: row.teamId, created_by_id: row.createdById, ...bindFields(row) }));
  return result.rows[0] === undefined ? null : parseSchedule(result.rows[0]);
}

const UPDATE_SQL = namedQuery({
  name: 'looplane_schedule_update_v1',
  params: { id: param.text, team_id: param.text, paused_reason: param.nullableText, reset_failures: param.boolean, ...fieldParams },
  text: `
UPDATE "Schedule" SET name = :name, "agentId" = :agent_id, "graphId" = :graph_id, cron = :cron, "everySeconds" = :every_seconds,
  timezone = :timezone, goal = :goal, budget = :budget, workspace = :workspace, overlap = :overlap::"ScheduleOverlap",
  "catchUp" = :catch_up::"ScheduleCatchUp", enabled = :enabled, "pauseAfterFailures" = :pause_after_failures,
  "nextFireAt" = ${utcFromMs('next_fire_at_ms')}, "pausedReason" = :paused_reason,
  "consecutiveFailures" = CASE WHEN :reset_failures THEN 0 ELSE "consecutiveFailures" END, "updatedAt" = ${NOW}
WHERE id = :id AND "teamId" = :team_id
RETURNING ${SCHEDULE_COLUMNS}`,
});

/**
 * Writes a schedule's fields (an edit, a pause, a resume); null when the team has no such
 * schedule. `resetFailures` starts the failure count again (a resume). Throws Postgres' unique
 * violation (23505) when the new name is another schedule's.
 */
export async function updateSchedule(
  db: Queryable,
  teamId: string,
  id: string,
  fields: ScheduleFields,
  state: { pausedReason: string | null; resetFailures: boolean },
): Promise<ScheduleRecord | null> {
  const result = await db.query(
    UPDATE_SQL.bind({ id, team_id: teamId, paused_reason: state.pausedReason, reset_failures: state.resetFailures, ...bindFields(fields) }),
  );
  return result.rows[0] === undefined ? null : parseSchedule(result.rows[0]);
}

const GET_SQL = namedQuery({
  name: 'looplane_schedule_get_v1',
  params: { id: param.text, team_id: param.text },
  text: `SELECT ${SCHEDULE_COLUMNS} FROM "Schedule" WHERE id = :id AND "teamId" = :team_id`,
});

/** A schedule of the team; null when there is none (or it is another team's). */
export async function scheduleForTeam(db: Queryable, teamId: string, id: string): Promise<ScheduleRecord | null> {
  const row = (await db.query(GET_SQL.bind({ id, team_id: teamId }))).rows[0];
  return row === undefined ? null : parseSchedule(row);
}

const LIST_SQL = namedQuery({
  name: 'looplane_schedule_list_v1',
  params: { team_id: param.text },
  text: `SELECT ${SCHEDULE_COLUMNS} FROM "Schedule" WHERE "teamId" = :team_id ORDER BY name LIMIT 1000`,
});

/** The team's schedules by name (a team has at most a few hundred). */
export async function listSchedules(db: Queryable, teamId: string): Promise<ScheduleRecord[]> {
  return (await db.query(LIST_SQL.bind({ team_id: teamId }))).rows.map(parseSchedule);
}

const DELETE_SQL = namedQuery({
  name: 'looplane_schedule_delete_v1',
  params: { id: param.text, team_id: param.text },
  text: `DELETE FROM "Schedule" WHERE id = :id AND "teamId" = :team_id RETURNING id`,
}).returns<{ id: string }>();

/** Deletes a schedule (its ticks go with it; its runs stay, unlinked); false when there was none. */
export async function deleteSchedule(db: Queryable, teamId: string, id: string): Promise<boolean> {
  return rowsOf(DELETE_SQL, await db.query(DELETE_SQL.bind({ id, team_id: teamId }))).length > 0;
}
