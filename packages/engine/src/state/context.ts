import type { PromptMessage, PromptToolCall } from '../ports/model-port';
import { jsonBytes, messageTokens } from '../prompt/tokens';
import type { ContextItem, RunState } from './run-state';

/** Appends a context item and keeps the running token sum (so `next` never re-counts the context). */
export function pushItem(state: RunState, kind: ContextItem['kind'], message: PromptMessage): ContextItem {
  const pinned = kind === 'system' || kind === 'goal' || kind === 'notice';
  const item: ContextItem = { no: state.nextItemNo++, kind, pinned, tokens: messageTokens(message), bytes: jsonBytes(message), message };
  state.context.push(item);
  state.contextTokens += item.tokens;
  state.contextBytes += item.bytes;
  return item;
}

/** Adds a tool call to the latest assistant message (the turn's `tool.requested` events follow its `model.responded`). */
export function attachToolCall(state: RunState, call: PromptToolCall): void {
  for (let i = state.context.length - 1; i >= 0; i--) {
    const item = state.context[i];
    if (item?.kind !== 'assistant' || item.message.role !== 'assistant') continue;
    item.message = { ...item.message, toolCalls: [...item.message.toolCalls, call] };
    const tokens = messageTokens(item.message);
    const bytes = jsonBytes(item.message);
    state.contextTokens += tokens - item.tokens;
    state.contextBytes += bytes - item.bytes;
    item.tokens = tokens;
    item.bytes = bytes;
    return;
  }
}

/** The tool message answering a call: what the model learns about it. Each call gets exactly one. */
export function pushToolResult(state: RunState, callId: string, content: string): void {
  pushItem(state, 'tool', { role: 'tool', toolCallId: callId, content });
  state.openCalls--;
  if (state.openCalls > 0 || state.deferred.length === 0) return;
  for (const { kind, message } of state.deferred) pushItem(state, kind, message);
  state.deferred = [];
}

/** A message from outside the model: appended now, or after the open calls' results. */
export function pushExternalMessage(state: RunState, kind: 'user' | 'notice', message: PromptMessage): void {
  if (state.openCalls > 0) state.deferred.push({ kind, message });
  else pushItem(state, kind, message);
}

/**
 * Replaces every unpinned item numbered up to `throughItem` with one summary, placed where the first
 * removed item was. Pinned items stay exactly where they are, so replaying the event rebuilds the
 * same context the live run had.
 */
export function compactContext(state: RunState, throughItem: number, summary: string): number {
  const kept: ContextItem[] = [];
  let removed = 0;
  let summaryAt = -1;
  for (const item of state.context) {
    if (!item.pinned && item.no <= throughItem) {
      if (summaryAt < 0) summaryAt = kept.length;
      removed++;
    } else kept.push(item);
  }
  if (removed === 0) return 0;
  const message = summaryMessage(summary);
  const item: ContextItem = { no: state.nextItemNo++, kind: 'summary', pinned: false, tokens: messageTokens(message), bytes: jsonBytes(message), message };
  kept.splice(summaryAt, 0, item);
  state.context = kept;
  state.contextTokens = kept.reduce((sum, i) => sum + i.tokens, 0);
  state.contextBytes = kept.reduce((sum, i) => sum + i.bytes, 0);
  return removed;
}

/** The message a compaction summary becomes (its token estimate is part of the compaction event). */
export function summaryMessage(summary: string): PromptMessage {
  return { role: 'system', content: `Summary of earlier work (older turns were compacted):\n${summary}` };
}
