import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';
import { SCHEDULE_COLUMNS, parseSchedule, type ScheduleRecord } from './schedules.repository';
import { FINISHED_STATUSES_SQL as FINISHED } from '../vocabulary/statuses';
import { utcFromMs } from '../sql/epoch-ms';

/**
 * Firing schedules. Postgres is the truth: a worker locks due schedules' rows (FOR NO KEY UPDATE
 * SKIP LOCKED, so two workers never work on one schedule at once and neither waits; the batch
 * statements are in schedule-batch.repository.ts), makes the
 * tick's run (keyed unique on `(scheduleId, scheduledAt)`), records the tick and advances
 * `nextFireAt` before it commits. A worker killed in between leaves the row unlocked and
 * `nextFireAt` where it was: the next one finds the tick's run by its key instead of making another.
 * The lock is NO KEY so the run's foreign key check (KEY SHARE) on the row is not blocked by it.
 */

const LOCK_SQL = namedQuery({
  name: 'looplane_schedule_lock_v1',
  params: { id: param.text, team_id: param.text },
  text: `SELECT ${SCHEDULE_COLUMNS} FROM "Schedule" WHERE id = :id AND "teamId" = :team_id FOR NO KEY UPDATE`,
});

/** Locks a schedule of the team (waiting for a tick in progress); null when there is none. */
export async function lockSchedule(db: Queryable, teamId: string, id: string): Promise<ScheduleRecord | null> {
  const row = (await db.query(LOCK_SQL.bind({ id, team_id: teamId }))).rows[0];
  return row === undefined ? null : parseSchedule(row);
}

const RUN_FOR_TICK_SQL = namedQuery({
  name: 'looplane_schedule_run_for_tick_v1',
  params: { schedule_id: param.text, at_ms: param.bigint },
  text: `SELECT id FROM "Run" WHERE "scheduleId" = :schedule_id AND "scheduledAt" = ${utcFromMs('at_ms')}`,
}).returns<{ id: string }>();

/** The run a tick made, if any (a worker killed after making it and before advancing the schedule). */
export async function runForTick(db: Queryable, scheduleId: string, at: Date): Promise<string | null> {
  return rowsOf(RUN_FOR_TICK_SQL, await db.query(RUN_FOR_TICK_SQL.bind({ schedule_id: scheduleId, at_ms: at.getTime() })))[0]?.id ?? null;
}

const UNFINISHED_SQL = namedQuery({
  name: 'looplane_schedule_unfinished_runs_v1',
  params: { schedule_id: param.text },
  text: `
SELECT id, status::text AS status FROM "Run"
WHERE "scheduleId" = :schedule_id AND status NOT IN ${FINISHED}
ORDER BY "scheduledAt" DESC LIMIT 20`,
}).returns<{ id: string; status: string }>();

/** The schedule's runs that have not finished (newest tick first). */
export async function unfinishedScheduleRuns(db: Queryable, scheduleId: string): Promise<Array<{ id: string; status: string }>> {
  return rowsOf(UNFINISHED_SQL, await db.query(UNFINISHED_SQL.bind({ schedule_id: scheduleId })));
}

export type TickOutcome = 'started' | 'skipped' | 'failed';

const RECORD_TICK_SQL = namedQuery({
  name: 'looplane_schedule_tick_record_v1',
  params: { id: param.text, schedule_id: param.text, at_ms: param.bigint, outcome: param.text, reason: param.nullableText, run_id: param.nullableText },
  text: `
INSERT INTO "ScheduleTick" (id, "scheduleId", "scheduledAt", outcome, reason, "runId", "createdAt")
VALUES (:id, :schedule_id, ${utcFromMs('at_ms')}, :outcome, :reason, :run_id, (statement_timestamp() AT TIME ZONE 'UTC'))
ON CONFLICT ("scheduleId", "scheduledAt") DO NOTHING`,
});

/** Records what a tick did (once per tick: a repeat after a crash keeps the first record). */
export async function recordScheduleTick(
  db: Queryable,
  tick: { id: string; scheduleId: string; scheduledAt: Date; outcome: TickOutcome; reason: string | null; runId: string | null },
): Promise<void> {
  await db.query(
    RECORD_TICK_SQL.bind({
      id: tick.id,
      schedule_id: tick.scheduleId,
      at_ms: tick.scheduledAt.getTime(),
      outcome: tick.outcome,
      reason: tick.reason,
      run_id: tick.runId,
    }),
  );
}

const ticksSchema = z.object({
  id: z.string(),
  scheduledAtMs: z.number().transform((n) => new Date(n)),
  outcome: z.enum(['started', 'skipped', 'failed']),
  reason: z.string().nullable(),
  runId: z.string().nullable(),
  runStatus: z.string().nullable(),
});
export type ScheduleTickRecord = Omit<z.infer<typeof ticksSchema>, 'scheduledAtMs'> & { scheduledAt: Date };

const TICKS_SQL = namedQuery({
  name: 'looplane_schedule_ticks_v1',
  params: { schedule_id: param.text, limit: param.int },
  text: `
SELECT t.id, (extract(epoch FROM t."scheduledAt") * 1000)::float8 AS "scheduledAtMs", t.outcome, t.reason, t."runId",
       r.status::text AS "runStatus"
FROM "ScheduleTick" t LEFT JOIN "Run" r ON r.id = t."runId"
WHERE t."scheduleId" = :schedule_id ORDER BY t."scheduledAt" DESC LIMIT :limit`,
});

/** The schedule's latest ticks (newest first) with the status of each tick's run. */
export async function listScheduleTicks(db: Queryable, scheduleId: string, limit: number): Promise<ScheduleTickRecord[]> {
  const rows = (await db.query(TICKS_SQL.bind({ schedule_id: scheduleId, limit }))).rows;
  return rows.map((row) => {
    const { scheduledAtMs, ...rest } = ticksSchema.parse(row);
    return { ...rest, scheduledAt: scheduledAtMs };
  });
}
