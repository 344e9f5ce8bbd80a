/**
 * Object keys superjson (the API's wire format) refuses to serialise, as a guard against prototype
 * pollution: `__proto__`, `constructor` and `prototype`. A model may put any of them in its tool
 * arguments, and the log keeps what it sent, so the wire carries them escaped:
 *
 * - a key that is one of the three names behind zero or more `~` is sent with one more `~` in front
 *   (`__proto__` → `~__proto__`, `~__proto__` → `~~__proto__`);
 * - every other key is sent as it is.
 *
 * The mapping is one to one, so {@link restoreReservedKeys} gives back exactly the keys that were
 * stored. Clients that read the wire without Looplane's transformer see the escaped form.
 */
const RESERVED = /^~*(?:__proto__|constructor|prototype)$/;
const ESCAPED = /^~+(?:__proto__|constructor|prototype)$/;

/** The wire form of a key. */
export function escapeReservedKey(key: string): string {
  return RESERVED.test(key) ? `~${key}` : key;
}

/** The key a wire key stands for. */
export function restoreReservedKey(key: string): string {
  return ESCAPED.test(key) ? key.slice(1) : key;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with every key of its plain objects (at any depth, through arrays) renamed by `rename`;
 * other values (dates, maps, class instances) are left as they are. Copies only the objects on a
 * path to a renamed key: most answers hold none and come back unchanged, as the same objects.
 * Keys are defined as own properties, so `__proto__` stays a key and never sets a prototype.
 */
function renameKeys(value: unknown, rename: (key: string) => string, ancestors: Set<object>): unknown {
  if (value === null || typeof value !== 'object' || ancestors.has(value)) return value;
  if (Array.isArray(value)) {
    ancestors.add(value);
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const mapped = renameKeys(item, rename, ancestors);
      if (mapped !== item) {
        out ??= value.slice();
        out[i] = mapped;
      }
    }
    ancestors.delete(value);
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  ancestors.add(value);
  const keys = Object.keys(value);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = value[key];
    const mapped = renameKeys(item, rename, ancestors);
    const name = rename(key);
    if (!out && (mapped !== item || name !== key)) {
      out = {};
      for (let j = 0; j < i; j++) define(out, keys[j]!, value[keys[j]!]);
    }
    if (out) define(out, name, mapped);
  }
  ancestors.delete(value);
  return out ?? value;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` with every reserved key in its wire form (see the module comment). */
export function escapeReservedKeys<T>(value: T): T {
  return renameKeys(value, escapeReservedKey, new Set()) as T;
}

/** The inverse of {@link escapeReservedKeys}: the keys as they were stored, as own properties. */
export function restoreReservedKeys<T>(value: T): T {
  return renameKeys(value, restoreReservedKey, new Set()) as T;
}
