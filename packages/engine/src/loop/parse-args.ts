import type { ToolArgs } from '../ports/tool-port';

/** Parsed tool arguments, or why they could not be used (the model is told, nothing runs). */
export type ParsedArgs = { args: ToolArgs; argsError?: string; rawArgs?: string };

/** Parses a model's argument text. Empty text means no arguments (some servers send "" for them). */
export function parseToolArgs(raw: string): ParsedArgs {
  if (raw.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { args: {}, argsError: `not valid JSON (${(error as Error).message})`, rawArgs: raw };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { args: {}, argsError: 'arguments must be a JSON object', rawArgs: raw };
  }
  return { args: value as ToolArgs };
}
