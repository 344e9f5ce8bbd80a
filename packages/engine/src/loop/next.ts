import { worstCase } from '../budget/cost';
import { planCompaction } from '../compaction/plan';
import { summaryRequest } from '../compaction/summarize';
import { nextPromptTokens } from '../state/build-request';
import { estimatePromptTokens } from '../prompt/tokens';
import { requireConfig } from '../state/require';
import type { RunState } from '../state/run-state';
import type { Action } from './actions';
import { nextCallAction } from './next-call';
import { nextReplayAction } from './next-replay';

/**
 * The next action for a state. Pure and cheap (O(calls in the turn), plus a context scan only when
 * compaction is due): the same state always yields the same action, which is what makes replay,
 * resumption on another machine and forks continue exactly as the original would have.
 */
export function next(state: RunState): Action {
  const config = requireConfig(state);
  // A started run is running or finished; `new` cannot get past requireConfig.
  if (state.status !== 'running' && state.status !== 'new') return { kind: 'done', status: state.status };
  if (state.waiting?.reason === 'approval') return { kind: 'wait', reason: 'approval', refs: [state.waiting.callId] };
  if (state.waiting?.reason === 'budget') return { kind: 'wait', reason: 'budget', refs: [state.waiting.requestId] };
  if (state.waiting?.reason === 'isolation') return { kind: 'wait', reason: 'isolation', refs: [state.waiting.level, state.waiting.callId] };

  const cycle = state.cycle;
  if (cycle?.spent) return { kind: 'settle' };
  if (state.failure) return { kind: 'finish', status: 'failed', error: state.failure };
  if (cycle?.purpose === 'model') return { kind: 'call_model' };
  if (cycle?.purpose === 'compaction') {
    const plan = planCompaction(state);
    // Nothing left to compact (cannot happen for an unchanged state): settle the unused reservation.
    return plan ? { kind: 'compact', plan } : { kind: 'settle' };
  }

  // A slash command's skill joins the context before the first model call
  // (no call is open then: the first turn has not been made).
  const preload = state.turn === 0 ? config.preloadSkills?.find((name) => !state.loadedSkills.includes(name)) : undefined;
  if (preload) return { kind: 'load_skill', callId: null, name: preload };
  const replayAction = nextReplayAction(state);
  if (replayAction) return replayAction;
  const callAction = nextCallAction(state, config);
  if (callAction) return callAction;
  if (state.finalText !== null) {
    // A persistent agent's answer ends its turn, not the run: it waits, free, for the next message.
    if (config.persistent) return { kind: 'wait', reason: 'message', refs: [] };
    return { kind: 'finish', status: 'succeeded', result: state.finalText };
  }
  // A persistent run serves message after message: its turn limit holds for each message's work.
  if (state.turn - (config.persistent ? state.inputTurn : 0) >= config.limits.maxTurns) {
    return { kind: 'finish', status: 'failed', error: `the run reached its limit of ${config.limits.maxTurns} model turns` };
  }

  const plan = planCompaction(state);
  if (plan && config.compaction.summarizer === 'deterministic') return { kind: 'compact', plan };
  if (plan) {
    const request = summaryRequest(plan.items, '', state.turn, config.compaction.summaryMaxTokens);
    const input = estimatePromptTokens(request.messages, request.tools);
    return { kind: 'reserve', purpose: 'compaction', amount: worstCase(config.model, input, config.compaction.summaryMaxTokens) };
  }
  return { kind: 'reserve', purpose: 'model', amount: worstCase(config.model, nextPromptTokens(state), config.model.maxOutputTokens) };
}
