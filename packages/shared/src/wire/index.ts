// The API's wire format (`@looplane/shared/wire`): kept out of the main entry so code that never
// talks to the API (the engine, the worker) does not load superjson.
export { wireTransformer } from './transformer';
export { escapeReservedKey } from './reserved-keys';
