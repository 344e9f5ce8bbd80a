import type { RunState } from '../state/run-state';

/**
 * Why a session cannot be forked at this state, or null. A fork must not inherit work in flight
 * that belongs to the parent: an open budget reservation (the parent settles it) or a tool call
 * that started (its side effect happened, or not, in the parent's workspace).
 */
export function forkBlocker(state: RunState): string | null {
  if (state.status === 'new') return 'the run has not started at this event';
  if (state.cycle) return `a model call (${state.cycle.requestId}) is in flight at this event`;
  const started = state.calls.find((c) => c.status === 'started');
  if (started) return `tool call ${started.id} (${started.name}) is running at this event`;
  return null;
}
