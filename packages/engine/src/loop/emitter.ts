import { AppError } from '@looplane/shared';
import type { EngineEvent, NewEvent } from '../events/event-types';
import type { EventStore } from '../ports/event-store';
import { apply } from '../state/fold';
import type { RunState } from '../state/run-state';

/**
 * An `emit` that appends a batch right after the state's last seq and applies what the store
 * returns, so the in-memory state is always exactly the fold of what is durable.
 */
export function emitter(store: EventStore, state: RunState, onEvent?: (event: EngineEvent) => void) {
  return async (events: NewEvent[]): Promise<void> => {
    if (events.length === 0) return;
    const stored = await store.append(events, state.lastSeq);
    if (stored.length !== events.length) {
      throw new AppError('INTERNAL', `the store returned ${stored.length} events for a batch of ${events.length}`);
    }
    for (const event of stored) {
      apply(state, event);
      onEvent?.(event);
    }
  };
}
