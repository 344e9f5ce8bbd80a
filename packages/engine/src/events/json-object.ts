import { z } from 'zod';

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** JSON object arguments of a tool call. */
export type ToolArgs = { [key: string]: JsonValue };

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isPlainObject(value) && Object.keys(value).every((key) => isJsonValue(value[key]));
}

/**
 * A JSON object (tool arguments), validated where it is: the parsed value is the input itself,
 * with every key the model sent. `z.record(z.string(), z.json())` builds a copy that drops a
 * `__proto__` key, so a replayed log would hold other arguments than the ones the live run
 * decided on, the approver saw and the tool got.
 */
export const jsonObjectSchema = z.custom<ToolArgs>((value) => value !== null && typeof value === 'object' && !Array.isArray(value) && isJsonValue(value), {
  message: 'expected a JSON object',
});
