import type { BudgetAmount, BudgetPort, ReserveOutcome } from '../ports/budget-port';
import type { Clock } from '../ports/clock';
import type { ModelPort, ModelRequest } from '../ports/model-port';
import type { PolicyDecision, PolicyPort } from '../ports/policy-port';
import type { ToolArgs, ToolInvocation, ToolResult, ToolRunner } from '../ports/tool-port';

/** A clock that never moves, so logs from separate runs compare equal. */
export function fixedClock(ms = Date.UTC(2026, 0, 1)): Clock {
  return { now: () => ms };
}

/** Every call allowed. */
export const allowAllPolicy: PolicyPort = { evaluate: async () => ({ decision: 'allow' }) };

/** A policy from a plain function of the call. */
export function policyFrom(decide: (call: ToolInvocation) => PolicyDecision): PolicyPort {
  return { evaluate: async (call) => decide(call) };
}

/**
 * A ledger in memory: reserve refuses what would take reserved + spent over the cost limit; both
 * calls are idempotent per key, like the Postgres ledger must be.
 */
export class MemoryBudget implements BudgetPort {
  readonly open = new Map<string, BudgetAmount>();
  readonly log: string[] = [];
  spentMicros = 0;
  spentTokens = 0;

  constructor(public limitMicros: number) {}

  private get reservedMicros(): number {
    let sum = 0;
    for (const amount of this.open.values()) sum += amount.costMicros;
    return sum;
  }

  async reserve(key: string, amount: BudgetAmount): Promise<ReserveOutcome> {
    if (this.open.has(key)) return { granted: true };
    if (this.spentMicros + this.reservedMicros + amount.costMicros > this.limitMicros) {
      this.log.push(`refuse ${key} ${amount.costMicros}`);
      return { granted: false, reason: `needs ${amount.costMicros} µ$; ${this.spentMicros} spent and ${this.reservedMicros} reserved of ${this.limitMicros}` };
    }
    this.open.set(key, amount);
    this.log.push(`reserve ${key} ${amount.costMicros}`);
    return { granted: true };
  }

  async settle(key: string, _reserved: BudgetAmount, spent: BudgetAmount): Promise<void> {
    if (!this.open.delete(key)) return;
    this.spentMicros += spent.costMicros;
    this.spentTokens += spent.tokens;
    this.log.push(`settle ${key} ${spent.costMicros}`);
  }
}

/** A ledger without a limit. */
export function unlimitedBudget(): MemoryBudget {
  return new MemoryBudget(Number.POSITIVE_INFINITY);
}

export type ToolHandler = (args: ToolArgs, call: ToolInvocation) => ToolResult | string | Promise<ToolResult | string>;

/** Tools from plain functions (a string is a successful output); every invocation is recorded. */
export function toolRunner(handlers: Record<string, ToolHandler>): ToolRunner & { calls: ToolInvocation[] } {
  const calls: ToolInvocation[] = [];
  return {
    calls,
    async run(call, options) {
      options?.signal?.throwIfAborted();
      calls.push(call);
      const handler = handlers[call.name];
      if (!handler) return { ok: false, output: `no handler for ${call.name}` };
      const result = await handler(call.args, call);
      return typeof result === 'string' ? { ok: true, output: result } : result;
    },
  };
}

/** Wraps a model port to keep every request it was sent. */
export function recordingModel(model: ModelPort): ModelPort & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    complete(request, options) {
      requests.push(request);
      return model.complete(request, options);
    },
  };
}
