import type { RunConfig } from '../config/run-config';
import { DELEGATE, LOAD_TOOLS } from '../config/tool-spec';
import type { RunState, ToolCallState } from '../state/run-state';
import { skillOffered } from '../state/apply-skills';
import { LOAD_SKILL } from '../skills/skill-schemas';
import type { Action } from './actions';

/** What a freshly requested call needs: refused outright, handled by the engine, or judged by policy. */
function classify(call: ToolCallState, state: RunState, config: RunConfig): Action {
  if (call.argsError) return { kind: 'reject_call', callId: call.id, reason: `invalid arguments: ${call.argsError}` };
  if (call.name === LOAD_TOOLS && config.toolLoading === 'on_demand' && config.tools.length > 0) {
    const names = call.args.names;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
      return { kind: 'reject_call', callId: call.id, reason: `${LOAD_TOOLS} takes { "names": string[] }` };
    }
    return { kind: 'load_tools', callId: call.id, names: names as string[] };
  }
  if (call.name === LOAD_SKILL && ((config.skills?.length ?? 0) > 0 || state.repositorySkills.length > 0)) return classifySkill(call, state, config);
  if (call.name === DELEGATE && config.delegates.length > 0) {
    const { to, goal } = call.args;
    if (typeof to !== 'string' || typeof goal !== 'string' || !goal.trim()) {
      return { kind: 'reject_call', callId: call.id, reason: `${DELEGATE} takes { "to": string, "goal": string }` };
    }
    if (!config.delegates.some((d) => d.to === to)) {
      const targets = config.delegates.map((d) => d.to).join(', ');
      return { kind: 'reject_call', callId: call.id, reason: `cannot delegate to ${to}; targets: ${targets}` };
    }
    return { kind: 'evaluate_policy', callId: call.id };
  }
  if (!config.tools.some((t) => t.name === call.name)) {
    return { kind: 'reject_call', callId: call.id, reason: `unknown tool ${call.name}` };
  }
  if (config.toolLoading === 'on_demand' && !state.loadedTools.includes(call.name)) {
    return { kind: 'reject_call', callId: call.id, reason: `${call.name} is not loaded; call ${LOAD_TOOLS} with ["${call.name}"] first` };
  }
  return { kind: 'evaluate_policy', callId: call.id };
}

/** `load_skill`: an offered skill not yet loaded is loaded; a second load is answered as a no-op. */
function classifySkill(call: ToolCallState, state: RunState, config: RunConfig): Action {
  const name = call.args.name;
  if (typeof name !== 'string') return { kind: 'reject_call', callId: call.id, reason: `${LOAD_SKILL} takes { "name": string }` };
  if (!skillOffered(state, name)) {
    const names = [...(config.skills ?? []), ...state.repositorySkills].map((s) => s.name).join(', ');
    return { kind: 'reject_call', callId: call.id, reason: `unknown skill ${name}; available: ${names}` };
  }
  if (state.loadedSkills.includes(name)) return { kind: 'skill_already_loaded', callId: call.id, name };
  return { kind: 'load_skill', callId: call.id, name };
}

/** A call that started and never finished: re-run it only if that is safe. */
function resumeStarted(call: ToolCallState, config: RunConfig): Action {
  const spec = config.tools.find((t) => t.name === call.name);
  if (spec?.idempotent) return { kind: 'run_tool', callId: call.id, resume: true };
  if (config.onInterruptedTool === 'ask' && !call.interruptionAsked) return { kind: 'ask_about_interrupted', callId: call.id };
  return { kind: 'interrupt_tool', callId: call.id, reason: 'the worker stopped while it was running' };
}

/**
 * The next action for the current turn's tool calls, in the order the model made them, or null
 * when every call is resolved. Delegations do not block later calls (children run concurrently);
 * the run waits for them once nothing else can proceed.
 */
export function nextCallAction(state: RunState, config: RunConfig): Action | null {
  const children: string[] = [];
  for (const call of state.calls) {
    switch (call.status) {
      case 'requested':
        // A replay's call the recording made too: its recorded result is served, nothing runs.
        if (state.replay?.serving[call.id]) return { kind: 'serve_recorded', callId: call.id };
        return classify(call, state, config);
      case 'allowed':
      case 'approved':
        if (call.held) return { kind: 'apply_held', callId: call.id };
        if (call.name === DELEGATE && config.delegates.length > 0) {
          return { kind: 'delegate', callId: call.id, to: String(call.args.to), goal: String(call.args.goal) };
        }
        return { kind: 'run_tool', callId: call.id, resume: false };
      case 'started':
        return resumeStarted(call, config);
      case 'awaiting_approval':
        return { kind: 'wait', reason: 'approval', refs: [call.id] };
      case 'delegated':
        children.push(call.id);
        break;
      default:
        break;
    }
  }
  return children.length > 0 ? { kind: 'wait', reason: 'child', refs: children } : null;
}
