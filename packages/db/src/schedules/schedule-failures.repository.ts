import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * A schedule's failures in a row: its newest finished runs (succeeded or failed; a cancelled run
 * neither breaks nor extends the streak) and ticks that could not start a run, newest tick first,
 * counted until the first success. Counted from the rows each time, so it is right whichever
 * worker, API process or restart saw a run finish. Reaching `pauseAfterFailures` pauses the
 * schedule; the UPDATE re-checks `enabled` under the row's lock, so exactly one caller pauses it.
 */
const SETTLE_SQL = namedQuery({
  name: 'looplane_schedule_settle_failures_v1',
  params: { now_ms: param.bigint },
  text: `
WITH streak AS (
  SELECT s.id, (
    SELECT count(*)::int FROM (
      SELECT bool_and(x.failed) OVER (ORDER BY x.at DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS still
      FROM (
        (SELECT r."scheduledAt" AS at, r.status = 'failed' AS failed FROM "Run" r
         WHERE r."scheduleId" = s.id AND r.status IN ('succeeded', 'failed') AND r."scheduledAt" IS NOT NULL
         ORDER BY r."scheduledAt" DESC LIMIT s."pauseAfterFailures")
        UNION ALL
        (SELECT t."scheduledAt", true FROM "ScheduleTick" t
         WHERE t."scheduleId" = s.id AND t.outcome = 'failed'
         ORDER BY t."scheduledAt" DESC LIMIT s."pauseAfterFailures")
      ) x
    ) y WHERE y.still
  ) AS failures
  FROM "Schedule" s WHERE s.enabled
), changed AS (
  SELECT c.id, st.failures FROM streak st
  JOIN LATERAL (SELECT id FROM "Schedule" WHERE id = st.id FOR NO KEY UPDATE SKIP LOCKED) c ON true
  WHERE st.failures <> (SELECT "consecutiveFailures" FROM "Schedule" WHERE id = st.id)
)
UPDATE "Schedule" s SET "consecutiveFailures" = ch.failures,
  enabled = ch.failures < s."pauseAfterFailures",
  "nextFireAt" = CASE WHEN ch.failures >= s."pauseAfterFailures" THEN NULL ELSE s."nextFireAt" END,
  "pausedReason" = CASE WHEN ch.failures >= s."pauseAfterFailures"
                        THEN format('paused after %s failed runs in a row', ch.failures) ELSE s."pausedReason" END,
  "updatedAt" = (to_timestamp(:now_ms / 1000.0) AT TIME ZONE 'UTC')
FROM changed ch WHERE s.id = ch.id AND s.enabled
RETURNING s.id, s."teamId", s.name, s.enabled, s."consecutiveFailures", s."pausedReason"`,
}).returns<{ id: string; teamId: string; name: string; enabled: boolean; consecutiveFailures: number; pausedReason: string | null }>();

/** A schedule that paused itself. */
export interface SelfPausedSchedule {
  id: string;
  teamId: string;
  name: string;
  consecutiveFailures: number;
  pausedReason: string;
}

/**
 * Brings every enabled schedule's failure count up to date and pauses those that reached their
 * `pauseAfterFailures`; returns the ones it paused (for the caller's audit rows and webhook, in
 * the same transaction). A schedule another transaction holds is left for the next pass.
 */
export async function settleScheduleFailures(db: Queryable, now: Date): Promise<SelfPausedSchedule[]> {
  const rows = rowsOf(SETTLE_SQL, await db.query(SETTLE_SQL.bind({ now_ms: now.getTime() })));
  return rows.filter((r) => !r.enabled).map((r) => ({ ...r, pausedReason: r.pausedReason ?? 'paused after failed runs' }));
}

const EMIT_SQL = namedQuery({
  name: 'looplane_schedule_webhook_paused_v1',
  params: { team_id: param.text, data: param.jsonb },
  text: `
SELECT count(*)::int AS emitted FROM (
  SELECT "looplane_webhook_emit"(:team_id, 'schedule.paused', :data, targets)
  FROM (SELECT "looplane_webhook_targets"(:team_id, 'schedule.paused') AS targets) t WHERE targets IS NOT NULL
) e`,
});

/** Puts `schedule.paused` in the webhook outbox for the team's subscribed endpoints (none: nothing). */
export async function emitSchedulePaused(db: Queryable, teamId: string, data: Record<string, unknown>): Promise<void> {
  await db.query(EMIT_SQL.bind({ team_id: teamId, data: JSON.stringify(data) }));
}
