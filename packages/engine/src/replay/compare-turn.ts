import { canonicalJson } from '../state/canonical-call';
import type { ToolCallState } from '../state/run-state';
import type { RecordedTurn } from '../ports/replay-port';
import type { DIVERGENCE_REASONS } from '../events/replay-schemas';

export type TurnComparison = { same: true } | { same: false; reason: (typeof DIVERGENCE_REASONS)[number]; detail: string; callIndex: number | null };

type Call = Pick<ToolCallState, 'name' | 'args' | 'argsError'>;

function describe(call: Call): string {
  return `${call.name}(${canonicalJson(call.args)})`;
}

/**
 * Whether the new model's turn asks for what the recorded turn did: the same number of calls,
 * each the same tool with arguments equal after canonical JSON (key order does not matter), and
 * each recorded call with a result the log can serve. The text the models said is not compared:
 * a replay is about what they would have done.
 */
export function compareTurn(recorded: RecordedTurn | null, calls: readonly Call[]): TurnComparison {
  if (!recorded) return { same: false, reason: 'no_recorded_turn', detail: 'the recording has no turn here (it ended earlier)', callIndex: null };
  for (let i = 0; i < Math.max(recorded.calls.length, calls.length); i++) {
    const was = recorded.calls[i];
    const now = calls[i];
    if (!was || !now) {
      const detail = was
        ? `the recording also called ${describe(was)}; the new model did not`
        : `the new model also called ${describe(now!)}; the recording did not`;
      return { same: false, reason: 'call_count', detail: `${recorded.calls.length} recorded call(s), ${calls.length} new: ${detail}`, callIndex: i };
    }
    if (was.name !== now.name || canonicalJson(was.args) !== canonicalJson(now.args) || (was.argsError === null) !== (now.argsError === null)) {
      return { same: false, reason: 'different_call', detail: `call ${i + 1}: recorded ${describe(was)}, new ${describe(now)}`, callIndex: i };
    }
    if (was.outcome.kind === 'unservable') {
      return {
        same: false,
        reason: 'unservable',
        detail: `call ${i + 1} (${was.name}) has no result in the recording to serve: ${was.outcome.status}`,
        callIndex: i,
      };
    }
  }
  return { same: true };
}
