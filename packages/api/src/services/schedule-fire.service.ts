import { createHash } from 'node:crypto';
import {
  advanceSchedules,
  appendAudit,
  emitSchedulePaused,
  lockDueSchedules,
  mailboxForDelivery,
  recordScheduleTicks,
  runForTick,
  settleScheduleFailures,
  unfinishedScheduleRuns,
  type AuditActor,
  type ScheduleRecord,
  type ScheduleStep,
  type ScheduleTickRow,
  type TickOutcome,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import { cancelRun, sendRunMessage } from './run-control.service';
import { createRun } from './run-create';
import { createGraphRun } from './graph-run';
import { newId } from '@looplane/db';
import type { RunDeps } from './runs.service';
import { queryableOf } from '@looplane/db';
import { renderScheduledGoal } from './schedule-timing';
import { scheduleRunInput, timingOf } from './schedule-run-input';
import { DEFAULT_GRACE_MS, planTick } from './schedule-timing';

/** What the scheduler needs: the run services' dependencies and a clock it can be given in tests. */
export interface ScheduleFireDeps extends RunDeps {
  clock: { now(): number };
  /** A tick later than this counts as missed and follows catchUp (default {@link DEFAULT_GRACE_MS}). */
  graceMs?: number;
  /** Called with what could not be done (the next pass tries again). */
  onError?: (error: unknown, what: string) => void;
}

/** The audit actor of everything the scheduler does on its own. */
const SCHEDULER_ACTOR: AuditActor = { type: 'system', name: 'scheduler' };

interface TickResult {
  outcome: TickOutcome;
  reason: string | null;
  runId: string | null;
}

/** Why a run could not start, for the tick's record: the problem a person would have been told. */
function reasonOf(error: unknown): string {
  if (error instanceof AppError && error.code !== 'INTERNAL') return error.message;
  return 'the run could not be created (an internal error; see the worker log)';
}

/** The schedule's creator: its runs are created, and a previous run cancelled, in their name. */
function creatorOf(schedule: ScheduleRecord): PrincipalActor | null {
  return schedule.createdById ? { type: 'user', userId: schedule.createdById } : null;
}

/**
 * Creates a tick's run as `actor` through runs.create's services (agent or graph); throws what
 * they throw.
 */
export async function createTickRun(
  deps: RunDeps,
  schedule: ScheduleRecord,
  at: Date,
  actor: PrincipalActor,
  auditActor: AuditActor,
  ip: string | null = null,
): Promise<{ runId: string }> {
  const tick = { scheduleId: schedule.id, scheduledAt: at, auditActor };
  const input = scheduleRunInput(schedule, at);
  return input.graphId ? createGraphRun(deps, actor, schedule.teamId, input, ip, tick) : createRun(deps, actor, schedule.teamId, input, ip, tick);
}

/**
 * The message id of a tick's message to a mailbox: the same for every try of the tick, so a worker
 * killed after the message committed but before the tick did sends nothing twice.
 */
const tickMessageId = (scheduleId: string, at: Date) => `tick_${createHash('sha256').update(`${scheduleId}|${at.toISOString()}`).digest('hex').slice(0, 40)}`;

/**
 * A tick of a persistent agent's schedule: its goal is the next message to the agent's mailbox run
 * (which continues it if it had finished), through runs.sendMessage's service.
 */
async function messageMailbox(
  deps: RunDeps,
  schedule: ScheduleRecord,
  at: Date,
  actor: PrincipalActor,
  auditActor: AuditActor,
  runId: string,
): Promise<TickResult> {
  try {
    await sendRunMessage(deps, actor, schedule.teamId, runId, renderScheduledGoal(schedule.goal, at), null, {
      messageId: tickMessageId(schedule.id, at),
      auditActor,
      auditData: { scheduleId: schedule.id, scheduledAt: at.toISOString() },
    });
    return { outcome: 'started', reason: `sent as a message to the agent's persistent run ${runId}`, runId };
  } catch (error) {
    return { outcome: 'failed', reason: reasonOf(error), runId };
  }
}

/**
 * Makes the run of one tick through the same services as runs.create (agent or graph: budget,
 * workspace, policy, run-start limits, audit, queueing), keyed `(scheduleId, scheduledAt)`. A run
 * the tick already has (made by a worker killed before it advanced the schedule) is the tick's run.
 * With `overlap`, an unfinished previous run makes the tick skip (skip) or is cancelled first
 * (cancel_previous, through runs.cancel's service); queue starts it anyway. A persistent agent's
 * tick is a message to its mailbox run when it has one (overlap does not apply).
 */
async function startScheduledRun(deps: RunDeps, schedule: ScheduleRecord, at: Date, auditActor: AuditActor, overlap: boolean): Promise<TickResult> {
  const q = queryableOf(deps.db);
  const existing = await runForTick(q, schedule.id, at);
  if (existing) return { outcome: 'started', reason: null, runId: existing };
  const actor = creatorOf(schedule);
  if (!actor) return { outcome: 'failed', reason: 'the schedule has no creator to run as; edit it to take it over', runId: null };
  const mailbox = await mailboxForDelivery(q, schedule.teamId, schedule.agentId);
  if (mailbox) return messageMailbox(deps, schedule, at, actor, auditActor, mailbox);
  if (overlap && schedule.overlap !== 'queue') {
    const unfinished = await unfinishedScheduleRuns(q, schedule.id);
    const previous = unfinished[0];
    if (previous && schedule.overlap === 'skip') {
      return { outcome: 'skipped', reason: `the previous run ${previous.id} is still ${previous.status} (overlap: skip)`, runId: null };
    }
    for (const run of unfinished) {
      // A run that finished meanwhile is refused with PRECONDITION_FAILED: nothing left to cancel.
      await cancelRun(deps, actor, schedule.teamId, run.id, null).catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === 'PRECONDITION_FAILED')) throw error;
      });
    }
  }
  try {
    const { runId } = await createTickRun(deps, schedule, at, actor, auditActor);
    return { outcome: 'started', reason: null, runId };
  } catch (error) {
    // The unique key refused a second run of the tick: the first is the tick's run.
    const raced = await runForTick(q, schedule.id, at);
    if (raced) return { outcome: 'started', reason: null, runId: raced };
    return { outcome: 'failed', reason: reasonOf(error), runId: null };
  }
}

/** A schedule's step, to be written with the batch's: its tick records and where it moves to. */
interface ScheduleStepResult {
  ticks: ScheduleTickRow[];
  step: ScheduleStep;
}

/**
 * Plans a locked due schedule's tick per catchUp and starts or skips it (the run is made on
 * another connection); what it did is written by the caller, in the lock's transaction.
 */
async function stepSchedule(deps: ScheduleFireDeps, schedule: ScheduleRecord, nextFireAt: Date, now: Date): Promise<ScheduleStepResult> {
  const id = schedule.id;
  const plan = planTick(timingOf(schedule), nextFireAt, now, schedule.catchUp, deps.graceMs ?? DEFAULT_GRACE_MS);
  const ticks: ScheduleTickRow[] = [];
  if (plan.missedFrom) {
    const reason = plan.fire
      ? `ticks missed while no worker ran; catchUp latest starts only the latest (${plan.fire.toISOString()})`
      : 'ticks missed while no worker ran; catchUp none drops them';
    ticks.push({ id: newId(), scheduleId: id, scheduledAt: plan.missedFrom, outcome: 'skipped', reason, runId: null });
  }
  let fired: Date | null = null;
  if (plan.fire) {
    const result = await startScheduledRun(deps, schedule, plan.fire, SCHEDULER_ACTOR, true);
    ticks.push({ id: newId(), scheduleId: id, scheduledAt: plan.fire, ...result });
    if (result.outcome === 'started') fired = plan.fire;
  }
  return { ticks, step: { id, next: plan.next, firedAt: fired } };
}

/** Schedules one transaction locks and fires at once (by default). */
const DEFAULT_BATCH_SIZE = 100;

/**
 * One batch: locks up to `size` due schedules in one statement (FOR NO KEY UPDATE SKIP LOCKED: a
 * schedule another worker is firing is left to it; those in `seen` were stepped in this pass),
 * starts all their ticks at once (so runs.create's group commit writes their runs in a few
 * transactions), records every tick and advances every schedule, and commits. A schedule whose
 * step threw (not a run that could not be made: that is a failed tick) is left as it was for the
 * next pass; the others go on. A pause waits for the row lock, so once it returns no tick of the
 * schedule is in progress and none follows. Returns how many it locked and how many it stepped.
 */
async function fireBatch(deps: ScheduleFireDeps, size: number, seen: Set<string>): Promise<{ locked: number; stepped: number }> {
  return deps.db.$transaction(
    async (tx) => {
      const q = queryableOf(tx);
      const now = new Date(deps.clock.now());
      const schedules = await lockDueSchedules(q, now, size, [...seen]);
      for (const schedule of schedules) seen.add(schedule.id);
      const outcomes = await Promise.allSettled(
        schedules.map((schedule) => (schedule.nextFireAt ? stepSchedule(deps, schedule, schedule.nextFireAt, now) : Promise.resolve(null))),
      );
      const done: ScheduleStepResult[] = [];
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'rejected') deps.onError?.(outcome.reason, `fire schedule ${schedules[i]!.id}`);
        else if (outcome.value) done.push(outcome.value);
      });
      await recordScheduleTicks(
        q,
        done.flatMap((d) => d.ticks),
      );
      await advanceSchedules(
        q,
        done.map((d) => d.step),
      );
      return { locked: schedules.length, stepped: done.length };
    },
    // The runs are made on other connections while this one holds the locks: allow them a while.
    { timeout: 120_000, maxWait: 10_000 },
  );
}

/**
 * Fires what is due now: up to `limit` schedules, in batches of `batchSize` (each batch one
 * transaction), `parallel` batches at once. Each batch holds one connection while its runs are
 * made on others, so keep `parallel` well under the pool's size. Returns how many schedules took a
 * step; the caller passes again at once while that is non-zero (a schedule more than one tick
 * behind takes one step per pass).
 */
export async function fireDueSchedules(deps: ScheduleFireDeps, options: { limit?: number; parallel?: number; batchSize?: number } = {}): Promise<number> {
  const limit = options.limit ?? 500;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const lanes = Math.max(1, Math.min(options.parallel ?? 2, Math.ceil(limit / batchSize)));
  const seen = new Set<string>();
  let claimed = 0;
  let stepped = 0;
  const lane = async () => {
    while (claimed < limit) {
      const size = Math.min(batchSize, limit - claimed);
      claimed += size;
      try {
        const batch = await fireBatch(deps, size, seen);
        stepped += batch.stepped;
        // Fewer than asked for: nothing more is due that this worker may take.
        claimed -= size - batch.locked;
        if (batch.locked < size) return;
      } catch (error) {
        deps.onError?.(error, `fire a batch of up to ${size} schedules`);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return stepped;
}

/**
 * Updates the failure streaks and pauses the schedules whose runs failed `pauseAfterFailures`
 * times in a row: each pause commits with its audit row (the scheduler as actor) and its
 * `schedule.paused` webhook event. Returns the ids paused.
 */
export async function settleScheduleStreaks(deps: ScheduleFireDeps): Promise<string[]> {
  return deps.db.$transaction(async (tx) => {
    const q = queryableOf(tx);
    const now = new Date(deps.clock.now());
    const paused = await settleScheduleFailures(q, now);
    for (const schedule of paused) {
      await appendAudit(tx, {
        teamId: schedule.teamId,
        actor: SCHEDULER_ACTOR,
        ip: null,
        action: 'schedule.paused',
        targetType: 'schedule',
        targetId: schedule.id,
        data: { reason: schedule.pausedReason, consecutiveFailures: schedule.consecutiveFailures },
      });
      await emitSchedulePaused(q, schedule.teamId, {
        scheduleId: schedule.id,
        name: schedule.name,
        reason: schedule.pausedReason,
        consecutiveFailures: schedule.consecutiveFailures,
        pausedAt: now.toISOString(),
      });
    }
    return paused.map((s) => s.id);
  });
}
