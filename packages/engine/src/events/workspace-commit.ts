import type { EventPayload, EventType } from './event-types';

/** An event of any type with its payload, as the engine and the clients' decoder both give it. */
type TypedEvent = { [T in EventType]: { type: T; payload: EventPayload<T> } }[EventType];

/**
 * The event types that move a session's files: the seed it started from (`workspace.seeded`), a
 * mutating call's `tool.finished` (its `commit`), a person's `workspace.restored` and a loaded
 * skill's files (`skill.loaded`). Readers that find "the files at event N" in SQL list them
 * from here.
 */
export const WORKSPACE_COMMIT_EVENTS = ['workspace.seeded', 'tool.finished', 'workspace.restored', 'skill.loaded'] as const satisfies readonly EventType[];

/**
 * The workspace commit an event records as the session's files from then on, or null when it
 * records none. The files at event N are the last such commit at or before N (none: the empty
 * workspace), through a fork's ancestry.
 */
export function workspaceCommitOf(event: TypedEvent): string | null {
  if (event.type === 'tool.finished' || event.type === 'workspace.restored' || event.type === 'workspace.seeded' || event.type === 'skill.loaded') {
    return event.payload.commit ?? null;
  }
  return null;
}
