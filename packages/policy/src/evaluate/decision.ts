import type { SandboxLevelDriver } from '@looplane/shared';
import type { ApproverRole, Outcome, Risk } from '../document/policy-schema';
import type { ShellAnalysis } from '../shell/analysis-types';
import type { ShellContext } from '../shell/analyze-shell';

/** A tool call as the policy sees it: the tool's name and its JSON arguments. */
export interface PolicyCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Where calls run; see `ShellContext`. File paths and shell writes are judged against `workspaceRoot`. */
export type PolicyContext = ShellContext;

/** `ruleId` of a decision no rule made: the document's default, or a call the package always allows. */
export const DEFAULT_RULE = 'default';
export const BUILTIN_RULE = 'builtin';

/** The policy's answer for one call. `approverRole` is set exactly when the outcome is require_approval. */
export interface Decision {
  outcome: Outcome;
  /** The id of the rule that decided, `default`, or `builtin`. */
  ruleId: string;
  /** Why: shown to the model on deny, to the approver on require_approval. */
  reason: string;
  approverRole?: ApproverRole;
  risk: Risk;
  /** What the shell parser found, for shell calls. */
  analysis?: ShellAnalysis;
  /**
   * The isolation level the deciding rule requires (its `minimumDriver`, at least the document's
   * `sandbox.minimumDriver`); absent when the rule asks for none or the call may not run.
   */
  isolation?: SandboxLevelDriver;
}

/** One rule the simulator tried, and why it did or did not match. */
export interface TraceStep {
  ruleId: string;
  matched: boolean;
  explanation: string;
}

/**
 * An effect rule that will look at the call's result after it runs: what it holds (`deletions`,
 * `truncations`, a share or amount of lost content...) and what it does then.
 */
export interface EffectPreview {
  ruleId: string;
  holds: string;
  outcome: Outcome;
  approverRole?: ApproverRole;
}

/** A decision with the trace of every rule tried up to (and including) the one that matched. */
export interface Simulation extends Decision {
  /** The least isolation the call would run with: the deciding rule's level or the document's minimum (null for a call that may not run). */
  sandbox: SandboxLevelDriver | null;
  trace: TraceStep[];
  /** The effect rules that will decide the call's result, in order (empty for calls that change no file). */
  effects: EffectPreview[];
}
