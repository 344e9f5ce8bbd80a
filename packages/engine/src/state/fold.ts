import { AppError } from '@looplane/shared';
import type { EngineEvent, EventType } from '../events/event-types';
import { breakerHandlers, observeBreakers } from './breaker-windows';
import { modelHandlers } from './apply-model';
import { runHandlers } from './apply-run';
import { toolHandlers } from './apply-tools';
import { replayHandlers } from './apply-replay';
import { workspaceHandlers } from './apply-workspace';
import { skillHandlers } from './apply-skills';
import type { Handler } from './handlers';
import { initialState, type RunState } from './run-state';

// The compiler checks this map covers every event type.
const handlers: { [T in EventType]: Handler<T> } = {
  ...runHandlers,
  ...modelHandlers,
  ...toolHandlers,
  ...breakerHandlers,
  ...replayHandlers,
  ...workspaceHandlers,
  ...skillHandlers,
};

/**
 * Applies one event in place and returns the same state: the incremental reducer the driver uses,
 * O(1) for every event but compaction. Events must arrive in seq order without gaps.
 */
export function apply(state: RunState, event: EngineEvent): RunState {
  if (event.seq !== state.lastSeq + 1) {
    throw new AppError('INTERNAL', `event seq ${event.seq} does not follow ${state.lastSeq}: the log has a gap or is out of order`);
  }
  (handlers[event.type] as Handler<EventType>)(state, event.payload, event);
  observeBreakers(state, event);
  state.lastSeq = event.seq;
  state.updatedAt = event.at;
  return state;
}

/** State = fold(events): a fresh state with every event applied. */
export function fold(events: Iterable<EngineEvent>): RunState {
  const state = initialState();
  for (const event of events) apply(state, event);
  return state;
}

/** The state as it was right after event `atSeq` (what a fork at `atSeq` starts from). */
export function foldUntil(events: Iterable<EngineEvent>, atSeq: number): RunState {
  const state = initialState();
  for (const event of events) {
    if (event.seq > atSeq) break;
    apply(state, event);
  }
  return state;
}
