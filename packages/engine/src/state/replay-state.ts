import type { ReplayMarker, ReplayMode } from '../events/replay-schemas';

/** A replay branch's progress against its recording, folded from its log. */
export interface ReplayState {
  sourceSessionId: string;
  atEvent: number;
  mode: ReplayMode;
  /** `state.turn` when the replay began: its k-th own turn is compared with the recording's k-th. */
  startTurn: number;
  /** Turns compared so far (each a `replay.matched`, or the one `replay.diverged`). */
  compared: number;
  /** The first divergence (session turn and the seq of its report), once there is one. */
  diverged: { turn: number; seq: number; detail: string } | null;
  /** seq of the latest `model.responded` (the report names it). */
  respondedSeq: number;
  /** Calls of the current turn whose recorded result is still to be served: callId → the recorded turn index and call. */
  serving: Record<string, { turn: number; recordedCallId: string }>;
}

/** The replay state a `session.forked` with a replay marker starts. */
export function startReplay(marker: ReplayMarker, turn: number): ReplayState {
  return {
    sourceSessionId: marker.sourceSessionId,
    atEvent: marker.atEvent,
    mode: marker.mode,
    startTurn: turn,
    compared: 0,
    diverged: null,
    respondedSeq: 0,
    serving: {},
  };
}
