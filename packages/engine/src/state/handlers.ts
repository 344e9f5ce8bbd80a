import type { EngineEvent, EventPayload, EventType } from '../events/event-types';
import type { RunState } from './run-state';

/** How one event type changes the state. Handlers mutate `state` and never the event. */
export type Handler<T extends EventType> = (state: RunState, payload: EventPayload<T>, event: EngineEvent<T>) => void;
export type HandlerGroup<K extends EventType> = { [T in K]: Handler<T> };
