// A replay branch's recording as the engine reads it (`EnginePorts.replay`); `replay/recording.ts`
// builds one from a log.
import type { EventPayload } from '../events/event-types';
import type { ToolArgs } from './tool-port';

/** How a recorded call ended, as far as a replay can use it. */
type RecordedOutcome =
  | { kind: 'finished'; seq: number; ok: boolean; output: string; truncated: boolean; commit?: string; exitCode?: number }
  | { kind: 'returned'; seq: number; ok: boolean; result: string }
  /** A loaded skill: served as recorded, so a replay reads the skill from the log, never the library. */
  | { kind: 'skill'; seq: number; skill: EventPayload<'skill.loaded'> }
  /** Ended inside the engine with no side effect: a replay lets the engine decide it again. */
  | { kind: 'rejected' | 'loaded'; seq: number }
  /** No result the log can serve (denied, refused by an approver, interrupted, never finished). */
  | { kind: 'unservable'; status: string };

export interface RecordedCall {
  callId: string;
  /** seq of its `tool.requested`. */
  seq: number;
  name: string;
  args: ToolArgs;
  argsError: string | null;
  outcome: RecordedOutcome;
}

/** One model turn of the recording: its `model.responded` and the calls it asked for, in order. */
export interface RecordedTurn {
  requestId: string;
  seq: number;
  calls: RecordedCall[];
}

/** The engine's view of a recording: its turns by index (0: the first turn after the replay's start). */
export interface ReplayRecording {
  turn(index: number, options?: { signal?: AbortSignal }): Promise<RecordedTurn | null>;
}
