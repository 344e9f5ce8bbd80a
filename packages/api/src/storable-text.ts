/** Why such text is refused, after the field's name (tRPC and REST say the same). */
export const UNSTORABLE_TEXT = 'must not contain NUL or unpaired surrogate characters';

/** How deep an input is walked (inputs are bounded by the body limit; this bounds the work). */
const MAX_DEPTH = 32;

/**
 * The path of the first string (or object key) in `value` that Postgres cannot store as text:
 * one holding NUL, or an unpaired UTF-16 surrogate (invalid in UTF-8). Null when all can be.
 */
export function unstorableTextPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return storable(value) ? null : path;
  // Bytes (an upload's archive) are not text, and walking them byte by byte would cost millions of steps.
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || depth > MAX_DEPTH) return null;
  for (const [key, child] of Object.entries(value)) {
    if (!storable(key)) return [...path, key.replace(/\0/g, '\\0')];
    const found = unstorableTextPath(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function storable(text: string): boolean {
  return !text.includes('\0') && !LONE_SURROGATE.test(text);
}
