import type { ApproverRole, Outcome, PolicyDocument } from '../document/policy-schema';
import type { Decision, PolicyCall, PolicyContext } from './decision';
import { decidePrepared } from './evaluate';
import { prepareCall } from './prepare-call';

/** A call whose decision differs between two policy versions. */
export interface ChangedDecision<C extends PolicyCall = PolicyCall> {
  call: C;
  before: Decision;
  after: Decision;
}

/** A decision as it was recorded when the call ran (the audit row's outcome, rule and role). */
export interface RecordedDecision {
  outcome: Outcome;
  ruleId: string;
  approverRole?: ApproverRole;
}

/** One call decided again: what it got before (a document's decision, or the recorded one), what `next` gives it. */
export interface Redecision<B extends RecordedDecision = Decision> {
  before: B;
  after: Decision;
  /** Another outcome, or approval by another role; a different rule giving the same answer is not a change. */
  changed: boolean;
}

function strip(decision: Decision & { trace?: unknown; effects?: unknown; sandbox?: unknown }): Decision {
  const { trace: _trace, effects: _effects, sandbox: _sandbox, ...rest } = decision;
  return rest;
}

/** Whether two decisions of one call differ in what happens to it (outcome or approver role). */
function decisionChanged(before: RecordedDecision, after: RecordedDecision): boolean {
  return before.outcome !== after.outcome || (before.approverRole ?? null) !== (after.approverRole ?? null);
}

/**
 * Decides one call again under `next`. `before` is either the document it was (or would have
 * been) decided by, analysed with the same prepared arguments, or the decision recorded when it
 * ran (a backtest compares history with a candidate). The single place both "recent calls this
 * save changes" and the policy backtest decide a call again.
 */
export function redecideCall(before: PolicyDocument, next: PolicyDocument, call: PolicyCall, context?: PolicyContext): Redecision;
export function redecideCall<B extends RecordedDecision>(before: B, next: PolicyDocument, call: PolicyCall, context?: PolicyContext): Redecision<B>;
export function redecideCall(
  before: PolicyDocument | RecordedDecision,
  next: PolicyDocument,
  call: PolicyCall,
  context: PolicyContext = {},
): Redecision<RecordedDecision> {
  const prepared = prepareCall(call, context);
  const previous = isDocument(before) ? strip(decidePrepared(before, prepared)) : before;
  const after = strip(decidePrepared(next, prepared));
  return { before: previous, after, changed: decisionChanged(previous, after) };
}

function isDocument(value: PolicyDocument | RecordedDecision): value is PolicyDocument {
  return 'rules' in value;
}

/**
 * The calls (e.g. recent real tool calls of the team) that `next` would decide differently from
 * `previous`: another outcome, or approval by another role. A different rule giving the same
 * answer is not a change. Each call's arguments are analysed once for both versions.
 */
export function redecide<C extends PolicyCall & { context?: PolicyContext }>(
  previous: PolicyDocument,
  next: PolicyDocument,
  calls: readonly C[],
  context: PolicyContext = {},
): ChangedDecision<C>[] {
  const changed: ChangedDecision<C>[] = [];
  for (const call of calls) {
    // A call may carry its own context (calls of different runs can sit in different workspaces).
    const result = redecideCall(previous, next, call, call.context ?? context);
    if (result.changed) changed.push({ call, before: result.before, after: result.after });
  }
  return changed;
}
