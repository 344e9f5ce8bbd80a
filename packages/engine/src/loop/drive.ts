import { draft } from '../events/create-event';
import type { EngineEvent } from '../events/event-types';
import type { EnginePorts } from '../ports/engine-ports';
import { fold } from '../state/fold';
import type { RunState } from '../state/run-state';
import { isStop, type StopAction, type WaitReason } from './actions';
import { emitter } from './emitter';
import { next } from './next';
import { perform } from './perform';
import type { StepContext } from './step-context';

export interface DriveOptions {
  ports: EnginePorts;
  /** The session's folded state; loaded from the store when omitted. Mutated as events are appended. */
  state?: RunState;
  /** Cancels in-flight model and tool calls; the drive then returns `aborted` without recording the step. */
  signal?: AbortSignal;
  /** Stops at the next step boundary (graceful shutdown): the current step completes first. */
  stopSignal?: AbortSignal;
  /** Upper bound on steps in this drive (a guard, and a way to cut a run short in tests). */
  maxSteps?: number;
  /** Called after each appended event (live fan-out). */
  onEvent?: (event: EngineEvent) => void;
  /** Ephemeral model text as it streams, before it is persisted in chunks. */
  onDelta?: (requestId: string, text: string) => void;
  /** Chunk size for persisted `model.delta` events (default 256 characters); false persists none. */
  deltaChunkChars?: number | false;
}

export type DriveOutcome =
  | { kind: 'done'; status: 'succeeded' | 'failed' | 'cancelled' }
  | { kind: 'waiting'; reason: WaitReason; refs: string[] }
  | { kind: 'stopped' }
  | { kind: 'aborted' }
  | { kind: 'step_limit' };

export interface DriveResult {
  state: RunState;
  outcome: DriveOutcome;
  steps: number;
}

function outcomeOf(action: StopAction): DriveOutcome {
  return action.kind === 'done' ? { kind: 'done', status: action.status } : { kind: 'waiting', reason: action.reason, refs: action.refs };
}

/**
 * The loop: `action = next(state)`, perform it, repeat, until the run is done, waits, or is
 * stopped. Every fact is appended before the loop acts on it, so a drive can end anywhere (crash,
 * lost lease, abort) and a later drive over the same log continues where it left off.
 */
export async function drive(options: DriveOptions): Promise<DriveResult> {
  const { ports, signal } = options;
  const state = options.state ?? fold(await ports.store.load({ signal }));
  const ctx: StepContext = {
    ports,
    state,
    signal,
    emit: emitter(ports.store, state, options.onEvent),
    event: (type, payload) => draft(type, payload, ports.clock.now()),
    deltaChunkChars: options.deltaChunkChars ?? 256,
    onDelta: options.onDelta,
  };
  let steps = 0;
  for (;;) {
    const action = next(state);
    if (isStop(action)) return { state, outcome: outcomeOf(action), steps };
    if (signal?.aborted) return { state, outcome: { kind: 'aborted' }, steps };
    if (options.stopSignal?.aborted) return { state, outcome: { kind: 'stopped' }, steps };
    if (options.maxSteps !== undefined && steps >= options.maxSteps) return { state, outcome: { kind: 'step_limit' }, steps };
    try {
      await perform(ctx, action);
    } catch (error) {
      // An abort surfaces as whatever the port threw; what matters is that we were asked to stop.
      if (signal?.aborted) return { state, outcome: { kind: 'aborted' }, steps };
      throw error;
    }
    steps++;
  }
}
