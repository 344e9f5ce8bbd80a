// @looplane/events: one typed, versioned model of run events for every client (the dashboard's
// browser bundle, the CLI) and what the server puts on the wire. Browser-safe: no Node built-ins.
export { wireEventSchema, parseWireEvent, type WireEvent } from './wire-event';
export { decodeWireEvent, type ClientEvent, type KnownEvent, type UnknownEvent } from './client-event';
export { upcastStored } from './stored-event';
export { describeEvent, headline, type EventDescription, type EventTone } from './describe-event';
export { ONE_LINE, type TextStyle } from './event-text';
