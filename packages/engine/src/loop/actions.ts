import type { CompactionPlan } from '../compaction/plan';
import type { BudgetAmount } from '../ports/budget-port';

/**
 * Why a run waits: a human decision, a child's result, a budget raise, (a persistent agent that
 * answered) the next message, or a worker offering the isolation level a deferred call needs
 * (refs: the level, then the call's id).
 */
export type WaitReason = 'approval' | 'child' | 'budget' | 'message' | 'isolation';

/**
 * What the loop must do next. `wait` and `done` end a drive: the worker releases the run, and the
 * deciding event (approval, child result, budget raised) is appended later, folded, and driven again.
 */
export type Action =
  | { kind: 'reserve'; purpose: 'model' | 'compaction'; amount: BudgetAmount }
  | { kind: 'call_model' }
  | { kind: 'settle' }
  | { kind: 'compact'; plan: CompactionPlan }
  | { kind: 'reject_call'; callId: string; reason: string }
  | { kind: 'load_tools'; callId: string; names: string[] }
  | { kind: 'evaluate_policy'; callId: string }
  | { kind: 'ask_about_interrupted'; callId: string }
  | { kind: 'run_tool'; callId: string; resume: boolean }
  | { kind: 'apply_held'; callId: string }
  | { kind: 'interrupt_tool'; callId: string; reason: string }
  | { kind: 'delegate'; callId: string; to: string; goal: string }
  | { kind: 'load_skill'; callId: string | null; name: string }
  | { kind: 'skill_already_loaded'; callId: string; name: string }
  | { kind: 'compare_replay' }
  | { kind: 'serve_recorded'; callId: string }
  | { kind: 'finish'; status: 'succeeded' | 'failed'; result?: string; error?: string }
  | { kind: 'wait'; reason: WaitReason; refs: string[] }
  | { kind: 'done'; status: 'succeeded' | 'failed' | 'cancelled' };

export type StopAction = Extract<Action, { kind: 'wait' | 'done' }>;

/** True for the actions that end a drive. */
export function isStop(action: Action): action is StopAction {
  return action.kind === 'wait' || action.kind === 'done';
}
