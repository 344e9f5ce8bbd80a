import { pushItem } from './context';
import type { HandlerGroup } from './handlers';

type ModelEvents =
  | 'budget.reserved'
  | 'budget.exceeded'
  | 'budget.charged'
  | 'budget.released'
  | 'model.requested'
  | 'model.delta'
  | 'model.responded'
  | 'model.failed';

export const modelHandlers: HandlerGroup<ModelEvents> = {
  'budget.reserved': (state, p) => {
    state.cycle = {
      requestId: p.requestId,
      purpose: p.purpose,
      reserved: { tokens: p.tokens, costMicros: p.costMicros },
      requested: false,
      deltaChars: 0,
      deltaCount: 0,
      spent: null,
    };
  },
  'budget.exceeded': (state, p) => {
    if (p.onExceed === 'wait') state.waiting = { reason: 'budget', requestId: p.requestId };
    else state.failure = `budget exceeded: ${p.reason}`;
  },
  'budget.charged': (state, p) => {
    state.totals.costMicros += p.costMicros;
  },
  // Settlement always ends with `budget.released` (possibly of zero), which closes the cycle.
  'budget.released': (state, p) => {
    if (state.cycle?.requestId === p.requestId) state.cycle = null;
  },
  'model.requested': (state, p) => {
    if (state.cycle?.requestId === p.requestId) state.cycle.requested = true;
  },
  'model.delta': (state, p) => {
    if (state.cycle?.requestId !== p.requestId) return;
    state.cycle.deltaChars += p.text.length;
    state.cycle.deltaCount++;
  },
  'model.responded': (state, p, event) => {
    state.turn++;
    if (state.replay) state.replay.respondedSeq = event.seq;
    state.totals.modelCalls++;
    state.totals.inputTokens += p.usage.inputTokens;
    state.totals.outputTokens += p.usage.outputTokens;
    if (state.cycle?.requestId === p.requestId) {
      state.cycle.spent = { tokens: p.usage.inputTokens + p.usage.outputTokens, costMicros: p.costMicros };
    }
    state.calls = [];
    state.finalText = p.text;
    state.finalTextSeq = event.seq;
    pushItem(state, 'assistant', { role: 'assistant', content: p.text, toolCalls: [] });
  },
  'model.failed': (state, p) => {
    if (state.cycle?.requestId === p.requestId) {
      state.cycle.spent = p.usage ? { tokens: p.usage.inputTokens + p.usage.outputTokens, costMicros: p.costMicros ?? 0 } : { tokens: 0, costMicros: 0 };
    }
    if (p.usage) {
      state.totals.inputTokens += p.usage.inputTokens;
      state.totals.outputTokens += p.usage.outputTokens;
    }
    state.failure = `model call failed: ${p.error.message}`;
  },
};
