import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param } from '../sql/named-query';
import type { TickOutcome } from './schedule-ticks.repository';
import { SCHEDULE_COLUMNS, parseSchedule, type ScheduleRecord } from './schedules.repository';
import { utcFromMs, utcFromMsExpr } from '../sql/epoch-ms';

/**
 * Firing due schedules in batches: one transaction locks many due rows at once (FOR NO KEY UPDATE
 * SKIP LOCKED, so workers split the due schedules between them and none waits), makes their ticks'
 * runs, then records every tick and advances every schedule in one statement each. The rows stay
 * locked until the commit, so exactly-once is the same as for one schedule at a time: a worker
 * killed before the commit leaves every `nextFireAt` where it was, and the next one finds the runs
 * already made by their `(scheduleId, scheduledAt)` key.
 */

/** Epoch milliseconds of a JSON record's bigint field as a UTC wall-time timestamp (exact). */

const LOCK_DUE_BATCH_SQL = namedQuery({
  name: 'looplane_schedule_lock_due_batch_v1',
  params: { now_ms: param.bigint, limit: param.int, exclude: param.jsonb },
  text: `
SELECT ${SCHEDULE_COLUMNS} FROM "Schedule"
WHERE enabled AND "nextFireAt" <= ${utcFromMs('now_ms')}
  AND NOT (id IN (SELECT jsonb_array_elements_text(:exclude)))
ORDER BY "nextFireAt" LIMIT :limit
FOR NO KEY UPDATE SKIP LOCKED`,
});

/**
 * Locks up to `limit` schedules due at `now` (most overdue first) until the transaction `db` is in
 * ends, skipping those another worker holds and those in `exclude` (already stepped by the caller
 * in this pass, so a schedule several ticks behind takes one step per pass).
 */
export async function lockDueSchedules(db: Queryable, now: Date, limit: number, exclude: readonly string[] = []): Promise<ScheduleRecord[]> {
  const result = await db.query(LOCK_DUE_BATCH_SQL.bind({ now_ms: now.getTime(), limit, exclude: JSON.stringify(exclude) }));
  return result.rows.map(parseSchedule);
}

const RECORD_TICKS_SQL = namedQuery({
  name: 'looplane_schedule_ticks_record_batch_v1',
  params: { ticks: param.jsonb },
  text: `
INSERT INTO "ScheduleTick" (id, "scheduleId", "scheduledAt", outcome, reason, "runId", "createdAt")
SELECT t.id, t."scheduleId", ${utcFromMsExpr('t."atMs"')}, t.outcome, t.reason, t."runId", (statement_timestamp() AT TIME ZONE 'UTC')
FROM jsonb_to_recordset(:ticks) AS t(id text, "scheduleId" text, "atMs" bigint, outcome text, reason text, "runId" text)
ON CONFLICT ("scheduleId", "scheduledAt") DO NOTHING`,
});

/** One tick's record for {@link recordScheduleTicks}. */
export interface ScheduleTickRow {
  id: string;
  scheduleId: string;
  scheduledAt: Date;
  outcome: TickOutcome;
  reason: string | null;
  runId: string | null;
}

/** Records what the ticks did, in one statement (once per tick: a repeat after a crash keeps the first record). */
export async function recordScheduleTicks(db: Queryable, ticks: readonly ScheduleTickRow[]): Promise<void> {
  if (ticks.length === 0) return;
  const rows = ticks.map((t) => ({ id: t.id, scheduleId: t.scheduleId, atMs: t.scheduledAt.getTime(), outcome: t.outcome, reason: t.reason, runId: t.runId }));
  await db.query(RECORD_TICKS_SQL.bind({ ticks: JSON.stringify(rows) }));
}

const ADVANCE_BATCH_SQL = namedQuery({
  name: 'looplane_schedule_advance_batch_v1',
  params: { steps: param.jsonb },
  text: `
UPDATE "Schedule" s SET "nextFireAt" = ${utcFromMsExpr('x."nextMs"')},
  "lastFiredAt" = COALESCE(${utcFromMsExpr('x."firedMs"')}, s."lastFiredAt"), "updatedAt" = (statement_timestamp() AT TIME ZONE 'UTC')
FROM jsonb_to_recordset(:steps) AS x(id text, "nextMs" bigint, "firedMs" bigint)
WHERE s.id = x.id AND s.enabled`,
});

/** One locked schedule's step for {@link advanceSchedules}: its next tick, and the tick that made a run, if one did. */
export interface ScheduleStep {
  id: string;
  next: Date;
  firedAt: Date | null;
}

/** Moves locked schedules to their next ticks, in one statement. */
export async function advanceSchedules(db: Queryable, steps: readonly ScheduleStep[]): Promise<void> {
  if (steps.length === 0) return;
  const rows = steps.map((s) => ({ id: s.id, nextMs: s.next.getTime(), firedMs: s.firedAt?.getTime() ?? null }));
  await db.query(ADVANCE_BATCH_SQL.bind({ steps: JSON.stringify(rows) }));
}
