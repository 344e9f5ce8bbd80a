import type { Schema } from '@looplane/client';
import { UsageError } from '../command';

/** The budget options of the commands that start runs (`--max-tokens`, `--max-cost` in dollars, …). */
export interface BudgetFlags {
  'max-tokens'?: string | undefined;
  'max-cost'?: string | undefined;
  'max-tool-calls'?: string | undefined;
  'on-exceed'?: string | undefined;
}

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number`);
  return n;
}

/** The run budget the flags ask for; undefined when no limit is given (unlimited). */
export function budgetOf(flags: BudgetFlags): Schema<'RunBudget'> | undefined {
  const onExceed = flags['on-exceed'] ?? 'wait';
  if (onExceed !== 'wait' && onExceed !== 'fail') throw new UsageError('--on-exceed must be wait or fail');
  const tokens = positiveNumber('max-tokens', flags['max-tokens']);
  const cost = positiveNumber('max-cost', flags['max-cost']);
  const toolCalls = positiveNumber('max-tool-calls', flags['max-tool-calls']);
  if (!tokens && !cost && !toolCalls) return undefined;
  return {
    ...(tokens ? { tokens: Math.round(tokens) } : {}),
    ...(cost ? { costMicros: Math.round(cost * 1_000_000) } : {}),
    ...(toolCalls ? { toolCalls: Math.round(toolCalls) } : {}),
    onExceed,
  };
}
