import type { ModelLimits } from '../config/run-config';
import type { BudgetAmount } from '../ports/budget-port';

/** Integer micro-dollars for a token count at endpoint prices (micro-dollars per million tokens), rounded up. */
export function costMicros(prices: Pick<ModelLimits, 'inputMicrosPerMTok' | 'outputMicrosPerMTok'>, inputTokens: number, outputTokens: number): number {
  return Math.ceil((inputTokens * prices.inputMicrosPerMTok + outputTokens * prices.outputMicrosPerMTok) / 1_000_000);
}

/** The worst case of one call: the whole prompt plus every output token the call may produce. */
export function worstCase(prices: ModelLimits, promptTokens: number, maxOutputTokens: number): BudgetAmount {
  return { tokens: promptTokens + maxOutputTokens, costMicros: costMicros(prices, promptTokens, maxOutputTokens) };
}
