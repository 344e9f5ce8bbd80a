/** An amount on a budget ledger: tokens and integer micro-dollars. */
export interface BudgetAmount {
  tokens: number;
  costMicros: number;
}

export type ReserveOutcome = { granted: true } | { granted: false; reason: string };

/**
 * Pre-authorised spend. `key` is unique within the session (the worker prefixes the session id).
 * Both calls must be idempotent per key: after a crash the engine may repeat the last one.
 */
export interface BudgetPort {
  /** Reserve the worst case before a model call, or refuse without reserving anything. */
  reserve(key: string, amount: BudgetAmount, options?: { signal?: AbortSignal }): Promise<ReserveOutcome>;
  /** Charge what was actually spent and release the rest of the reservation. */
  settle(key: string, reserved: BudgetAmount, spent: BudgetAmount): Promise<void>;
}
