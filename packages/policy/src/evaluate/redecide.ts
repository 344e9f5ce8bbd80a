import type { PolicyDocument } from '../document/policy-schema';
import type { Decision, PolicyCall, PolicyContext } from './decision';
import { decidePrepared } from './evaluate';
import { prepareCall } from './prepare-call';

/** A call whose decision differs between two policy versions. */
export interface ChangedDecision<C extends PolicyCall = PolicyCall> {
  call: C;
  before: Decision;
  after: Decision;
}

function strip(decision: Decision & { trace?: unknown }): Decision {
  const { trace: _trace, ...rest } = decision;
  return rest;
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
    const prepared = prepareCall(call, call.context ?? context);
    const before = decidePrepared(previous, prepared);
    const after = decidePrepared(next, prepared);
    if (before.outcome !== after.outcome || before.approverRole !== after.approverRole) {
      changed.push({ call, before: strip(before), after: strip(after) });
    }
  }
  return changed;
}
