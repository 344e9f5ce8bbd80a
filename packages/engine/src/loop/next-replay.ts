import type { RunState } from '../state/run-state';
import type { Action } from './actions';

/**
 * A replay's step between a model turn and its tool calls: compare the turn with the recording
 * once (before any of its calls is judged or run), and after a divergence in `stop` mode, end
 * the branch with the report's line as its result. Null when nothing replay-specific is due.
 */
export function nextReplayAction(state: RunState): Action | null {
  const replay = state.replay;
  if (!replay) return null;
  if (replay.diverged) {
    if (replay.mode !== 'stop') return null;
    return {
      kind: 'finish',
      status: 'succeeded',
      result: `Replay stopped at turn ${replay.diverged.turn}, the first divergence from the recording: ${replay.diverged.detail}`,
    };
  }
  return state.turn - replay.startTurn > replay.compared ? { kind: 'compare_replay' } : null;
}
