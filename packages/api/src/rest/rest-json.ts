import { createHash } from 'node:crypto';

/** BigInt counters become JSON numbers (their bounds keep them below 2^53); dates use `toJSON`. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/** A procedure's result as the JSON a client receives (dates as ISO text, no undefined fields). */
export function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value, replacer);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** JSON with object keys sorted at every level: the same data always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the canonical JSON of a value. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
