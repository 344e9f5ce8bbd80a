import type { EventPayload, EventType, NewEvent } from '../events/event-types';
import type { EnginePorts } from '../ports/engine-ports';
import type { RunState } from '../state/run-state';

/** What performing one action needs: the ports, the live state, and `emit`, which appends and applies. */
export interface StepContext {
  ports: EnginePorts;
  state: RunState;
  signal: AbortSignal | undefined;
  /** Appends a batch atomically and applies it to `state` before resolving. */
  emit(events: NewEvent[]): Promise<void>;
  /** Builds an event stamped by the clock port. */
  event<T extends EventType>(type: T, payload: EventPayload<T>): NewEvent<T>;
  /** Persist streamed text as `model.delta` events in chunks of at least this many characters; false: never. */
  deltaChunkChars: number | false;
  /** Ephemeral live stream of model text (not persisted), e.g. for Redis fan-out. */
  onDelta: ((requestId: string, text: string) => void) | undefined;
}
