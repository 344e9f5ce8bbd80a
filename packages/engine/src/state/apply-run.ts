import { repositoryText } from './repository-context';
import { toolDefinitions, systemText } from '../prompt/tool-defs';
import type { RunConfig } from '../config/run-config';
import type { ToolDefinition } from '../ports/model-port';
import { jsonBytes, messageTokens, toolDefinitionTokens } from '../prompt/tokens';
import { compactContext, pushExternalMessage, pushItem } from './context';
import type { HandlerGroup } from './handlers';
import type { RunState } from './run-state';
import { startReplay } from './replay-state';

interface ToolDefsOf {
  toolDefs: ToolDefinition[];
  toolTokens: number;
  toolBytes: number;
}

/**
 * The definitions of a config before any tool is loaded on demand, per config object: runs that
 * share one snapshot (a burst of runs of one template, whose config is validated once and frozen)
 * compute them once. Nothing mutates a config or these arrays.
 */
const initialDefs = new WeakMap<RunConfig, ToolDefsOf>();

function defsOf(config: RunConfig, loaded: readonly string[], skillsOffered?: boolean): ToolDefsOf {
  const toolDefs = toolDefinitions(config, loaded, skillsOffered);
  return {
    toolDefs,
    toolTokens: toolDefs.reduce((sum, def) => sum + toolDefinitionTokens(def), 0),
    toolBytes: toolDefs.reduce((sum, def) => sum + jsonBytes(def), 0),
  };
}

function initialDefsOf(config: RunConfig): ToolDefsOf {
  let defs = initialDefs.get(config);
  if (!defs) {
    defs = defsOf(config, []);
    initialDefs.set(config, defs);
  }
  return defs;
}

/** Recomputes the tool definitions sent with each call (only at start and when tools load). */
export function refreshToolDefs(state: RunState): void {
  const config = state.config;
  if (!config) return;
  // A seeded repository's skills are the run's own, not the shared config's: no cached defs then.
  const defs =
    state.repositorySkills.length > 0
      ? defsOf(config, config.toolLoading !== 'eager' ? state.loadedTools : [], true)
      : state.loadedTools.length > 0 && config.toolLoading !== 'eager'
        ? defsOf(config, state.loadedTools)
        : initialDefsOf(config);
  state.toolDefs = defs.toolDefs;
  state.toolTokens = defs.toolTokens;
  state.toolBytes = defs.toolBytes;
}

/** A finished state gets more work (a resume or a fork): running again, the old outcome cleared. */
function reopen(state: RunState): void {
  if (state.status !== 'succeeded' && state.status !== 'failed' && state.status !== 'cancelled') return;
  state.status = 'running';
  state.result = null;
  state.error = null;
  state.failure = null;
  state.waiting = null;
}

/** A branch's own config: later calls use its model and limits; its system prompt replaces the pinned one in place. */
function replaceConfig(state: RunState, config: RunConfig): void {
  state.config = config;
  const system = systemText(config);
  const at = state.context.findIndex((item) => item.kind === 'system');
  const old = at >= 0 ? state.context[at] : undefined;
  if (old) {
    state.contextTokens -= old.tokens;
    state.contextBytes -= old.bytes;
    if (system) {
      const message = { role: 'system' as const, content: system };
      Object.assign(old, { message, tokens: messageTokens(message), bytes: jsonBytes(message) });
      state.contextTokens += old.tokens;
      state.contextBytes += old.bytes;
    } else state.context.splice(at, 1);
  } else if (system) {
    const item = pushItem(state, 'system', { role: 'system', content: system });
    // The system prompt leads the context, as `run.started` put it.
    state.context.pop();
    state.context.unshift(item);
  }
  refreshToolDefs(state);
}

type RunEvents = 'run.started' | 'run.resumed' | 'run.finished' | 'session.forked' | 'message.added' | 'memory.written' | 'compaction.applied';

export const runHandlers: HandlerGroup<RunEvents> = {
  'run.started': (state, p, event) => {
    state.status = 'running';
    state.goal = p.goal;
    state.config = p.config;
    state.startedAt = event.at;
    const system = systemText(p.config);
    if (system) pushItem(state, 'system', { role: 'system', content: system });
    state.repositorySkills = p.repository?.skills ?? [];
    const repository = repositoryText(state.seed, p.repository);
    if (repository) pushItem(state, 'notice', { role: 'system', content: repository });
    pushItem(state, 'goal', { role: 'user', content: p.goal });
    refreshToolDefs(state);
  },
  'run.resumed': (state, p) => {
    // Raising a budget (or an operator's nudge) ends a budget wait; the next step reserves again.
    if (state.waiting?.reason === 'budget') state.waiting = null;
    // A worker offering the level took the run: the deferred call runs next.
    if (state.waiting?.reason === 'isolation' && p.reason === 'isolation') state.waiting = null;
    // `sessions.resume` on a finished branch: it continues from its last state with new input.
    reopen(state);
  },
  'run.finished': (state, p) => {
    state.status = p.status;
    // v2: a result that is the final answer is named by its event's seq, not repeated (payloads.ts).
    state.result = p.result ?? (p.resultSeq !== undefined && p.resultSeq === state.finalTextSeq ? state.finalText : null);
    state.error = p.error ?? null;
    state.waiting = null;
  },
  // A fork's first own event; the inherited events already built its state. A fork of a finished
  // branch continues from there; a fork that changed the config (model, prompt) takes it from here on.
  'session.forked': (state, p) => {
    reopen(state);
    if (p.config) replaceConfig(state, p.config);
    // A replay compares its turns with the recording from here; any other branch runs for real.
    state.replay = p.replay ? startReplay(p.replay, state.turn) : null;
  },
  'message.added': (state, p) => {
    if (p.role === 'notice') pushExternalMessage(state, 'notice', { role: 'system', content: p.text });
    else {
      pushExternalMessage(state, 'user', { role: 'user', content: p.text });
      // New human input reopens the conversation: the last answer is no longer final.
      state.inputTurn = state.turn;
      state.finalText = null;
      state.finalTextSeq = null;
    }
  },
  'memory.written': (state, p) => {
    state.memory[p.key] = { version: p.version, value: p.value };
  },
  'compaction.applied': (state, p) => {
    compactContext(state, p.throughItem, p.summary);
    state.totals.compactions++;
    if (p.usage) {
      state.totals.inputTokens += p.usage.inputTokens;
      state.totals.outputTokens += p.usage.outputTokens;
    }
    if (state.cycle?.purpose === 'compaction') {
      state.cycle.spent = { tokens: (p.usage?.inputTokens ?? 0) + (p.usage?.outputTokens ?? 0), costMicros: p.costMicros };
    }
  },
};
