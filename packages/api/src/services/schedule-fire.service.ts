import { createHash } from 'node:crypto';
import {
  advanceSchedule,
  appendAudit,
  dueScheduleIds,
  emitSchedulePaused,
  lockDueSchedule,
  mailboxForDelivery,
  recordScheduleTick,
  runForTick,
  settleScheduleFailures,
  unfinishedScheduleRuns,
  type AuditActor,
  type ScheduleRecord,
  type TickOutcome,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { PrincipalActor } from '../trpc';
import { cancelRun, sendRunMessage } from './run-control.service';
import { createRun } from './run-create';
import { createGraphRun } from './graph-run';
import { newId } from './ids';
import type { RunDeps } from './runs.service';
import { queryableOf } from './sessions-ancestry';
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

/**
 * One due schedule's step, under its row's lock (FOR NO KEY UPDATE SKIP LOCKED: a schedule another
 * worker is firing is left to it): plan the tick per catchUp, start or skip it, record it, advance
 * `nextFireAt`, commit. Returns whether it did anything. A pause waits for the lock, so once it
 * returns no tick of the schedule is in progress and none follows.
 */
async function fireOne(deps: ScheduleFireDeps, id: string): Promise<boolean> {
  return deps.db.$transaction(
    async (tx) => {
      const q = queryableOf(tx);
      const now = new Date(deps.clock.now());
      const schedule = await lockDueSchedule(q, id, now);
      if (!schedule?.nextFireAt) return false;
      const plan = planTick(timingOf(schedule), schedule.nextFireAt, now, schedule.catchUp, deps.graceMs ?? DEFAULT_GRACE_MS);
      if (plan.missedFrom) {
        const reason = plan.fire
          ? `ticks missed while no worker ran; catchUp latest starts only the latest (${plan.fire.toISOString()})`
          : 'ticks missed while no worker ran; catchUp none drops them';
        await recordScheduleTick(q, { id: newId(), scheduleId: id, scheduledAt: plan.missedFrom, outcome: 'skipped', reason, runId: null });
      }
      let fired: Date | null = null;
      if (plan.fire) {
        const result = await startScheduledRun(deps, schedule, plan.fire, SCHEDULER_ACTOR, true);
        await recordScheduleTick(q, { id: newId(), scheduleId: id, scheduledAt: plan.fire, ...result });
        if (result.outcome === 'started') fired = plan.fire;
      }
      await advanceSchedule(q, id, plan.next, fired);
      return true;
    },
    // The run is made on another connection while this one holds the lock: allow it a while.
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/**
 * Fires what is due now: up to `limit` schedules, `parallel` at once (each holds one connection
 * while its run is made on another, so keep it well under the pool's size). Returns how many
 * schedules took a step; the caller passes again at once while that is non-zero (a schedule more
 * than one tick behind takes one step per pass).
 */
export async function fireDueSchedules(deps: ScheduleFireDeps, options: { limit?: number; parallel?: number } = {}): Promise<number> {
  const ids = await dueScheduleIds(queryableOf(deps.db), new Date(deps.clock.now()), options.limit ?? 200);
  let next = 0;
  let stepped = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        if (await fireOne(deps, id)) stepped++;
      } catch (error) {
        deps.onError?.(error, `fire schedule ${id}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel ?? 4) }, lane));
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
