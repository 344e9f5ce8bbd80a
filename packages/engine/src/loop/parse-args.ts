import { storableJson, storableText } from '../events/storable-text';
import type { ToolArgs } from '../ports/tool-port';

/**
 * Parsed tool arguments, or why they could not be used (the model is told, nothing runs).
 * `sanitized`: the model's text held a NUL or an unpaired surrogate, recorded as U+FFFD.
 */
export type ParsedArgs = { args: ToolArgs; argsError?: string; rawArgs?: string; sanitized?: true };

/**
 * Parses a model's argument text. Empty text means no arguments (some servers send "" for them).
 * `JSON.parse` keeps every key the model sent as an own property, `__proto__` included: the
 * arguments are data, never merged into another object's prototype.
 */
export function parseToolArgs(raw: string): ParsedArgs {
  if (raw.trim() === '') return { args: {} };
  // Deeper values would overflow the stack of whatever walks them next (JSON.stringify, the
  // policy, Postgres' jsonb parser), failing every append of the answer; no tool needs them.
  if (nestingDepth(raw) > MAX_ARGS_DEPTH) {
    return marked({ args: {}, argsError: `arguments nest deeper than ${MAX_ARGS_DEPTH} levels`, rawArgs: storableText(raw) }, storableText(raw) !== raw);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return marked({ args: {}, argsError: `not valid JSON (${(error as Error).message})`, rawArgs: storableText(raw) }, storableText(raw) !== raw);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return marked({ args: {}, argsError: 'arguments must be a JSON object', rawArgs: storableText(raw) }, storableText(raw) !== raw);
  }
  const args = storableJson(value as ToolArgs);
  return marked({ args }, args !== value);
}

/** Most levels of objects and arrays tool arguments may nest. */
export const MAX_ARGS_DEPTH = 64;

/** How deep brackets nest in JSON text (outside strings), without parsing it: one pass, no recursion. */
function nestingDepth(raw: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

const marked = (parsed: ParsedArgs, sanitized: boolean): ParsedArgs => (sanitized ? { ...parsed, sanitized: true } : parsed);
