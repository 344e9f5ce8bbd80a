/**
 * Text the event log cannot hold: NUL (Postgres refuses it in `text` and `jsonb`) and UTF-16
 * surrogates without their other half (`jsonb` refuses them, and UTF-8 has no encoding for them).
 * A model can return either; what it returns must still be recorded, or its answer is lost and the
 * call is paid for again on every retry.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point: Postgres refuses it in text and jsonb.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const UNSTORABLE_TEST = new RegExp(UNSTORABLE.source);

/** The replacement character: one UTF-16 unit for one, so lengths and offsets stay as the model sent them. */
const REPLACEMENT = '\uFFFD';

/** True when `text` holds a NUL or an unpaired surrogate. */
export function isUnstorable(text: string): boolean {
  return UNSTORABLE_TEST.test(text);
}

/** `text` with every NUL and unpaired surrogate replaced by U+FFFD (the same string when there is none). */
export function storableText(text: string): string {
  return isUnstorable(text) ? text.replace(UNSTORABLE, REPLACEMENT) : text;
}

/** True when the last unit of `text` is the first half of a surrogate pair (its second half may follow). */
export function endsInHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/**
 * A JSON value with {@link storableText} applied to every string and every object key. Returns the
 * same value when nothing needed replacing. Keys are defined as own properties, so a key such as
 * `__proto__` stays a key and never becomes a prototype.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item: unknown, i) => {
      const clean = storableJson(item);
      if (clean !== item) {
        out ??= [...value];
        out[i] = clean;
      }
    });
    return (out ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let changed = false;
  const entries = keys.map((key) => {
    const cleanKey = storableText(key);
    const clean = storableJson(record[key]);
    changed ||= cleanKey !== key || clean !== record[key];
    return [cleanKey, clean] as const;
  });
  if (!changed) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  return out as T;
}
