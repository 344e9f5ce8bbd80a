import type { EngineEvent } from '../events/event-types';
import type { RecordedCall, RecordedTurn, ReplayRecording } from '../ports/replay-port';

/**
 * The model turns of a log after `atEvent`, in order: what a replay that starts at `atEvent`
 * compares its own turns with (its k-th turn against the k-th here). Pure; one pass.
 */
export function recordingOf(events: readonly EngineEvent[], atEvent: number): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  const calls = new Map<string, RecordedCall>();
  const status = (callId: string, value: string) => {
    const call = calls.get(callId);
    if (call && call.outcome.kind === 'unservable') call.outcome = { kind: 'unservable', status: value };
  };
  for (const event of events) {
    if (event.seq <= atEvent) continue;
    switch (event.type) {
      case 'model.responded':
        turns.push({ requestId: event.payload.requestId, seq: event.seq, calls: [] });
        break;
      case 'tool.requested': {
        const turn = turns.at(-1);
        if (!turn || turn.requestId !== event.payload.requestId) break;
        const call: RecordedCall = {
          callId: event.payload.callId,
          seq: event.seq,
          name: event.payload.name,
          args: event.payload.args,
          argsError: event.payload.argsError ?? null,
          outcome: { kind: 'unservable', status: 'never finished' },
        };
        turn.calls.push(call);
        calls.set(call.callId, call);
        break;
      }
      case 'tool.finished': {
        const call = calls.get(event.payload.callId);
        const p = event.payload;
        if (call) {
          call.outcome = {
            kind: 'finished',
            seq: event.seq,
            ok: p.ok,
            output: p.output,
            truncated: p.truncated,
            ...(p.commit !== undefined ? { commit: p.commit } : {}),
            ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
          };
        }
        break;
      }
      case 'delegation.returned': {
        const call = calls.get(event.payload.callId);
        if (call) call.outcome = { kind: 'returned', seq: event.seq, ok: event.payload.ok, result: event.payload.result };
        break;
      }
      case 'tool.rejected': {
        const call = calls.get(event.payload.callId);
        if (call) call.outcome = { kind: 'rejected', seq: event.seq };
        break;
      }
      case 'skill.loaded': {
        const call = event.payload.callId ? calls.get(event.payload.callId) : undefined;
        if (call) call.outcome = { kind: 'skill', seq: event.seq, skill: event.payload };
        break;
      }
      case 'tools.loaded': {
        const call = calls.get(event.payload.callId);
        if (call) call.outcome = { kind: 'loaded', seq: event.seq };
        break;
      }
      case 'policy.decided':
        if (event.payload.decision === 'deny') status(event.payload.callId, 'denied by policy');
        break;
      case 'approval.decided':
        if (!event.payload.approved) status(event.payload.callId, 'rejected by an approver');
        break;
      case 'tool.interrupted':
        status(event.payload.callId, 'interrupted');
        break;
      default:
        break;
    }
  }
  return turns;
}

/** A recording held in memory (the worker loads the source log once per job). */
export function recordingFrom(turns: readonly RecordedTurn[]): ReplayRecording {
  return { turn: async (index) => turns[index] ?? null };
}
