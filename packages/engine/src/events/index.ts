// @looplane/engine/events: the event log's types and its versioned codec, without the loop. The
// entry point clients (the dashboard's browser bundle, the CLI) read events through, so that one
// codec upcasts every stored version; pure code, like the rest of the engine.
export type { EventType, EventPayload } from './event-types';
export { decodeEvent, eventVersion, isEventType, EVENT_TYPES } from './event-codec';
export { describeEffect } from './workspace-effect';
export { workspaceCommitOf, WORKSPACE_COMMIT_EVENTS } from './workspace-commit';
