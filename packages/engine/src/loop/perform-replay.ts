import { AppError } from '@looplane/shared';
import type { ReplayRecording } from '../ports/replay-port';
import { compareTurn } from '../replay/compare-turn';
import type { ReplayState } from '../state/replay-state';
import { requireConfig } from '../state/require';
import { truncateUtf8 } from './perform-tools';
import type { StepContext } from './step-context';

function replayOf(ctx: StepContext): { replay: ReplayState; recording: ReplayRecording } {
  const replay = ctx.state.replay;
  if (!replay) throw new AppError('INTERNAL', 'the session is not a replay');
  const recording = ctx.ports.replay;
  if (!recording) throw new AppError('INTERNAL', 'this worker has no recording for the replay');
  return { replay, recording };
}

/** `tool.requested`'s seq, from the id the engine minted for it (`call-<seq>`). */
function seqOfCall(callId: string): number {
  const seq = Number(callId.slice('call-'.length));
  return Number.isInteger(seq) ? seq : 0;
}

/**
 * Compares the latest turn with the recording's turn at the same position: `replay.matched`
 * (each call whose recorded result can be served is marked so) or `replay.diverged`, the report.
 */
export async function compareReplay(ctx: StepContext): Promise<void> {
  const { replay, recording } = replayOf(ctx);
  const index = replay.compared;
  const recorded = await recording.turn(index, { signal: ctx.signal });
  const { state } = ctx;
  const verdict = compareTurn(recorded, state.calls);
  if (verdict.same && recorded) {
    const calls = state.calls.map((call, i) => {
      const was = recorded.calls[i]!;
      const served = was.outcome.kind === 'finished' || was.outcome.kind === 'returned' || was.outcome.kind === 'skill';
      return { callId: call.id, recordedCallId: was.callId, recordedSeq: was.seq, served };
    });
    await ctx.emit([ctx.event('replay.matched', { turn: state.turn, replayTurn: index + 1, recordedSeq: recorded.seq, calls })]);
    return;
  }
  if (verdict.same) throw new AppError('INTERNAL', 'a turn matched no recorded turn');
  await ctx.emit([
    ctx.event('replay.diverged', {
      turn: state.turn,
      replayTurn: index + 1,
      reason: verdict.reason,
      detail: verdict.detail,
      callIndex: verdict.callIndex,
      mode: replay.mode,
      sourceSessionId: replay.sourceSessionId,
      recorded: recorded ? { seq: recorded.seq, calls: recorded.calls.map((c) => ({ name: c.name, args: c.args, seq: c.seq })) } : null,
      replayed: { seq: replay.respondedSeq, calls: state.calls.map((c) => ({ name: c.name, args: c.args, seq: seqOfCall(c.id) })) },
    }),
  ]);
}

/**
 * Serves a call's recorded result: the recorded `tool.finished` (with its workspace commit, so
 * the branch's files follow the recording) or `delegation.returned`, marked `replayed`. No
 * policy check, no sandbox, no child: the call already happened once, in the recording.
 */
export async function serveRecorded(ctx: StepContext, callId: string): Promise<void> {
  const { replay, recording } = replayOf(ctx);
  const ref = replay.serving[callId];
  if (!ref) throw new AppError('INTERNAL', `call ${callId} has no recorded result to serve`);
  const recorded = (await recording.turn(ref.turn, { signal: ctx.signal }))?.calls.find((c) => c.callId === ref.recordedCallId);
  const outcome = recorded?.outcome;
  if (outcome?.kind === 'returned') {
    await ctx.emit([ctx.event('delegation.returned', { callId, ok: outcome.ok, result: outcome.result, replayed: true, recordedSeq: outcome.seq })]);
    return;
  }
  if (outcome?.kind === 'skill') {
    const { callId: _recordedCall, replayed: _r, recordedSeq: _s, ...skill } = outcome.skill;
    await ctx.emit([ctx.event('skill.loaded', { ...skill, callId, replayed: true, recordedSeq: outcome.seq })]);
    return;
  }
  if (outcome?.kind !== 'finished') throw new AppError('INTERNAL', `the recording lost the result of ${ref.recordedCallId}`);
  // The branch's output limit applies as it would to a live result.
  const { text, truncated } = truncateUtf8(outcome.output, requireConfig(ctx.state).limits.maxToolOutputBytes);
  await ctx.emit([
    ctx.event('tool.finished', {
      callId,
      ok: outcome.ok,
      output: text,
      truncated: truncated || outcome.truncated,
      ...(outcome.commit !== undefined ? { commit: outcome.commit } : {}),
      ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
      replayed: true,
      recordedSeq: outcome.seq,
    }),
  ]);
}
