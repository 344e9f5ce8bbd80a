import { AppError } from '@looplane/shared';
import { createEvent } from '../events/create-event';
import type { EventPayload } from '../events/event-types';
import { drive, type DriveOptions, type DriveOutcome } from '../loop/drive';
import { emitter } from '../loop/emitter';
import { fold } from '../state/fold';
import type { RunState, ToolCallState } from '../state/run-state';

export interface HarnessOptions extends Omit<DriveOptions, 'state'> {
  /** How a human decides an approval (default: approve). */
  decide?: (call: ToolCallState, state: RunState) => Omit<EventPayload<'approval.decided'>, 'callId'>;
  /** What a child returns (default: a fixed success text). */
  child?: (to: string, goal: string) => { ok: boolean; result: string };
  /** Called before a budget wait is resumed, e.g. to raise the limit. */
  raiseBudget?: (state: RunState) => void;
  /** Drives before giving up (default 10 000). */
  maxDrives?: number;
}

/**
 * Plays the worker and the humans around it: drives, and whenever the run waits, appends the
 * deciding event (approval, child result, budget resumed) and drives again. Decisions depend only
 * on the state, so a run resumed from any prefix of the log makes the same ones.
 */
export async function runToEnd(options: HarnessOptions): Promise<{ state: RunState; outcome: DriveOutcome; drives: number }> {
  const { ports } = options;
  const state = fold(await ports.store.load());
  const emit = emitter(ports.store, state, options.onEvent);
  const limit = options.maxDrives ?? 10_000;
  for (let drives = 1; ; drives++) {
    const { outcome } = await drive({ ...options, state });
    if (outcome.kind !== 'waiting' || drives >= limit) return { state, outcome, drives };
    if (outcome.reason === 'approval') {
      const call = state.calls.find((c) => c.id === outcome.refs[0]);
      if (!call) throw new AppError('INTERNAL', `waiting for approval of unknown call ${outcome.refs[0]}`);
      const decision = options.decide?.(call, state) ?? { approved: true, by: 'tester' };
      await emit([createEvent('approval.decided', { callId: call.id, ...decision }, ports.clock)]);
    } else if (outcome.reason === 'child') {
      const events = outcome.refs.map((callId) => {
        const call = state.calls.find((c) => c.id === callId);
        const { to, goal } = { to: String(call?.args.to), goal: String(call?.args.goal) };
        const returned = options.child?.(to, goal) ?? { ok: true, result: `${to} finished: ${goal}` };
        return createEvent('delegation.returned', { callId, ...returned }, ports.clock);
      });
      await emit(events);
    } else if (outcome.reason === 'isolation') {
      // A worker offering the level took the run.
      await emit([createEvent('run.resumed', { reason: 'isolation', note: `a worker offering ${outcome.refs[0]} took the run` }, ports.clock)]);
    } else {
      options.raiseBudget?.(state);
      await emit([createEvent('run.resumed', { reason: 'budget', note: 'budget raised' }, ports.clock)]);
    }
  }
}
