// The clock stamps events, so it is declared with them (a layer below the ports); the engine's
// ports are still all found here.
export type { Clock } from '../events/clock';
