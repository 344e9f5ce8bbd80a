import type { HandlerGroup } from './handlers';

/** The replay's own events: a turn that agreed (its calls to serve), the first divergence. */
export const replayHandlers: HandlerGroup<'replay.matched' | 'replay.diverged'> = {
  'replay.matched': (state, p) => {
    const replay = state.replay;
    if (!replay) return;
    replay.compared++;
    for (const call of p.calls) if (call.served) replay.serving[call.callId] = { turn: p.replayTurn - 1, recordedCallId: call.recordedCallId };
  },
  'replay.diverged': (state, p, event) => {
    const replay = state.replay;
    if (!replay) return;
    replay.compared++;
    replay.diverged = { turn: p.turn, seq: event.seq, detail: p.detail };
    replay.serving = {};
  },
};
