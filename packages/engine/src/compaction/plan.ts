import { nextPromptTokens } from '../state/build-request';
import type { ContextItem, RunState } from '../state/run-state';

/** What to compact: every unpinned item up to `throughItem`, all older than the turns kept verbatim. */
export interface CompactionPlan {
  throughItem: number;
  items: ContextItem[];
  tokensBefore: number;
}

function nthLastAssistant(context: readonly ContextItem[], n: number): number {
  let seen = 0;
  for (let i = context.length - 1; i >= 0; i--) {
    if (context[i]?.kind === 'assistant' && ++seen === n) return i;
  }
  return -1;
}

/**
 * Null unless the next prompt plus the maximum output would exceed `threshold` of the context
 * window. The cut is always at the start of a turn, so a tool call never loses its result; it keeps
 * `keepRecentTurns` turns, fewer if that is the only way to free anything, and never re-compacts a
 * lone summary (which would loop without shrinking).
 */
export function planCompaction(state: RunState): CompactionPlan | null {
  const config = state.config;
  if (!config) return null;
  const tokensBefore = nextPromptTokens(state);
  if (tokensBefore + config.model.maxOutputTokens <= config.compaction.threshold * config.model.contextWindow) return null;
  for (let keep = config.compaction.keepRecentTurns; keep >= 1; keep--) {
    const start = nthLastAssistant(state.context, keep);
    if (start < 0) continue;
    const items = state.context.slice(0, start).filter((item) => !item.pinned);
    const last = items[items.length - 1];
    if (last && items.some((item) => item.kind !== 'summary')) return { throughItem: last.no, items, tokensBefore };
  }
  return null;
}
