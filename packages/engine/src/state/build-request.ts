import type { ModelRequest } from '../ports/model-port';
import type { RunState } from './run-state';

/**
 * The model request for the next turn: the context as it stands (pinned items, any summary, recent
 * turns) and the tool definitions. Pure: replaying the same events rebuilds the same request.
 */
export function buildTurnRequest(state: RunState, requestId: string): ModelRequest {
  return {
    requestId,
    purpose: 'turn',
    turn: state.turn,
    messages: state.context.map((item) => item.message),
    tools: state.toolDefs,
    maxOutputTokens: state.config?.model.maxOutputTokens ?? 0,
  };
}

/**
 * Bytes of `{"messages":[…],"tools":[…]}` for the next turn, from running sums: equal to
 * `promptBytes(request.messages, request.tools)` without serialising the whole context every step.
 */
export function nextPromptBytes(state: RunState): number {
  const commas = Math.max(0, state.context.length - 1) + Math.max(0, state.toolDefs.length - 1);
  return '{"messages":[],"tools":[]}'.length + commas + state.contextBytes + state.toolBytes;
}

/** Estimated prompt tokens of the next turn, kept as running sums so this is O(1). */
export function nextPromptTokens(state: RunState): number {
  return state.contextTokens + state.toolTokens;
}
