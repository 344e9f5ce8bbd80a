import type { EngineEvent, EventPayload, EventType } from '../events/event-types';

/** The payloads of every event of one type, typed. */
export function payloadsOf<T extends EventType>(events: readonly EngineEvent[], type: T): EventPayload<T>[] {
  return events.filter((e): e is EngineEvent<T> => e.type === type).map((e) => e.payload as EventPayload<T>);
}

/** The call ids the model's tool calls received, in order. */
export function callIds(events: readonly EngineEvent[]): string[] {
  return payloadsOf(events, 'tool.requested').map((p) => p.callId);
}
