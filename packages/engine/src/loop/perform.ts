import type { Action } from './actions';
import { callModel, compact, reserve, settle } from './perform-model';
import { applyHeld, askAboutInterrupted, delegate, evaluatePolicy, interruptTool, loadTools, rejectCall, runTool } from './perform-tools';
import type { StepContext } from './step-context';
import { compareReplay, serveRecorded } from './perform-replay';
import { loadSkill, skillAlreadyLoaded } from './perform-skills';

/**
 * `run.finished`. A result that is the final answer names that answer's `model.responded` by its
 * seq: the event carries the text for the run's columns (the write's projection), and the log keeps
 * it once, in the answer (`storedPayload` leaves it out of this row).
 */
function finishedEvent(ctx: StepContext, action: Extract<Action, { kind: 'finish' }>) {
  const { state } = ctx;
  const answer = action.result !== undefined && action.result === state.finalText && state.finalTextSeq !== null ? state.finalTextSeq : null;
  return ctx.event('run.finished', {
    status: action.status,
    ...(action.result !== undefined ? { result: action.result } : {}),
    ...(answer !== null ? { resultSeq: answer } : {}),
    ...(action.error !== undefined ? { error: action.error } : {}),
  });
}

/**
 * Performs one action: calls at most one port, then appends the resulting events (applied to the
 * state as they are stored). `wait` and `done` are not performed: they end the drive.
 */
export async function perform(ctx: StepContext, action: Action): Promise<void> {
  switch (action.kind) {
    case 'reserve':
      return reserve(ctx, action.purpose, action.amount);
    case 'call_model':
      return callModel(ctx);
    case 'settle':
      return settle(ctx);
    case 'compact':
      return compact(ctx, action.plan);
    case 'reject_call':
      return rejectCall(ctx, action.callId, action.reason);
    case 'load_tools':
      return loadTools(ctx, action.callId, action.names);
    case 'load_skill':
      return loadSkill(ctx, action.callId, action.name);
    case 'skill_already_loaded':
      return skillAlreadyLoaded(ctx, action.callId, action.name);
    case 'evaluate_policy':
      return evaluatePolicy(ctx, action.callId);
    case 'ask_about_interrupted':
      return askAboutInterrupted(ctx, action.callId);
    case 'run_tool':
      return runTool(ctx, action.callId, action.resume);
    case 'apply_held':
      return applyHeld(ctx, action.callId);
    case 'interrupt_tool':
      return interruptTool(ctx, action.callId, action.reason);
    case 'delegate':
      return delegate(ctx, action.callId, action.to, action.goal);
    case 'compare_replay':
      return compareReplay(ctx);
    case 'serve_recorded':
      return serveRecorded(ctx, action.callId);
    case 'finish':
      return ctx.emit([finishedEvent(ctx, action)]);
    case 'wait':
    case 'done':
      return;
  }
}
