// One measured tick of the schedule lateness benchmark: waits until every schedule's tick at `at`
// is recorded, then reads the tick rows and their runs and checks exactly-once (one started tick
// and one run per schedule, the tick naming its run). Lateness is measured from the tick's time
// to the tick's record (`ScheduleTick.createdAt`, the statement time of its INSERT, made after the
// tick's run was created, committed and enqueued), and also to the run's own `createdAt`.
import type { Db } from '@looplane/db';
import { quantile } from '../compare/stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 1000;

export interface TickMeasure {
  at: string;
  schedules: number;
  /** Tick rows recorded, by outcome (all `started` when every schedule made its run). */
  outcomes: Record<string, number>;
  /** Runs whose (scheduleId, scheduledAt) is this tick, and of how many schedules. */
  runs: number;
  runSchedules: number;
  /** Ticks whose runId is not the run of their schedule at this time. */
  mismatched: number;
  /** Tick time → the tick recorded (after its run was made), ms. */
  lateness: { p50: number; p99: number; max: number; min: number };
  /** Tick time → the run's createdAt (the start of the transaction that inserted it), ms. */
  runCreatedLateness: { p50: number; p99: number; max: number };
  /** Seconds from the tick's time until the last of its ticks was recorded (the scheduler's pass). */
  recordedWithinS: number;
  exactlyOnce: boolean;
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN, min: sorted[0] ?? Number.NaN };
};

/** Waits for `schedules` tick rows at `at` (failing after `deadlineMs` past it), then measures the tick. */
export async function measureTick(db: Db, at: Date, schedules: number, deadlineMs: number): Promise<TickMeasure> {
  const wait = at.getTime() - Date.now();
  if (wait > 0) await sleep(wait);
  for (;;) {
    const recorded = await db.scheduleTick.count({ where: { scheduledAt: at } });
    if (recorded >= schedules) break;
    if (Date.now() > at.getTime() + deadlineMs)
      throw new Error(`only ${recorded} of ${schedules} ticks at ${at.toISOString()} recorded after ${deadlineMs} ms`);
    await sleep(POLL_MS);
  }
  const ticks = await db.scheduleTick.findMany({ where: { scheduledAt: at }, select: { scheduleId: true, outcome: true, runId: true, createdAt: true } });
  const runs = await db.run.findMany({ where: { scheduledAt: at }, select: { id: true, scheduleId: true, createdAt: true } });
  const runOf = new Map(runs.map((r) => [r.scheduleId, r.id]));
  const outcomes: Record<string, number> = {};
  for (const tick of ticks) outcomes[tick.outcome] = (outcomes[tick.outcome] ?? 0) + 1;
  const mismatched = ticks.filter((tick) => tick.outcome !== 'started' || tick.runId === null || runOf.get(tick.scheduleId) !== tick.runId).length;
  const runSchedules = new Set(runs.map((r) => r.scheduleId)).size;
  const lateness = ticks.map((tick) => tick.createdAt.getTime() - at.getTime());
  const runLateness = runs.map((r) => r.createdAt.getTime() - at.getTime());
  const latenessSummary = summary(lateness);
  const runSummary = summary(runLateness);
  return {
    at: at.toISOString(),
    schedules,
    outcomes,
    runs: runs.length,
    runSchedules,
    mismatched,
    lateness: latenessSummary,
    runCreatedLateness: { p50: runSummary.p50, p99: runSummary.p99, max: runSummary.max },
    recordedWithinS: Number((latenessSummary.max / 1000).toFixed(2)),
    exactlyOnce: ticks.length === schedules && runs.length === schedules && runSchedules === schedules && mismatched === 0,
  };
}

/** When the worker had finished running each tick's runs: seconds from the tick to the last run's finishedAt, and how many finished. */
export async function runsFinished(db: Db, at: Date): Promise<{ finished: number; succeeded: number; lastFinishedS: number | null }> {
  const runs = await db.run.findMany({ where: { scheduledAt: at }, select: { status: true, finishedAt: true } });
  const finishedAt = runs.flatMap((r) => (r.finishedAt ? [r.finishedAt.getTime()] : []));
  return {
    finished: finishedAt.length,
    succeeded: runs.filter((r) => r.status === 'succeeded').length,
    lastFinishedS: finishedAt.length > 0 ? Number(((Math.max(...finishedAt) - at.getTime()) / 1000).toFixed(2)) : null,
  };
}
