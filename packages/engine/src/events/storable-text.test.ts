import { describe, expect, it } from 'vitest';
import { isUnstorable, storableJson, storableText } from './storable-text';

const FFFD = '\uFFFD';

describe('storableText', () => {
  it('replaces NUL and unpaired surrogates one unit for one, and keeps valid pairs', () => {
    expect(storableText('a\u0000b')).toBe(`a${FFFD}b`);
    expect(storableText('\uD800x\uDC00')).toBe(`${FFFD}x${FFFD}`);
    expect(storableText('end\uD83D')).toBe(`end${FFFD}`);
    expect(storableText('🙂 and \uD83D\uDE42')).toBe('🙂 and 🙂');
    expect(storableText('\uDC00\uD800')).toBe(`${FFFD}${FFFD}`);
    const text = 'x\u0000y\uD800';
    expect(storableText(text)).toHaveLength(text.length);
  });

  it('returns the same string when there is nothing to replace', () => {
    const text = 'plain text, ünïcödé, 🙂';
    expect(storableText(text)).toBe(text);
    expect(isUnstorable(text)).toBe(false);
    expect(isUnstorable('a\u0000')).toBe(true);
  });
});

describe('storableJson', () => {
  it('cleans strings and keys at every depth, and keeps untouched values identical', () => {
    const clean = { a: [1, { b: 'ok' }], c: null };
    expect(storableJson(clean)).toBe(clean);
    const dirty = { 'k\u0000': ['x\uD800', { deep: 'y\u0000' }], same: clean };
    const out = storableJson(dirty);
    expect(out).toEqual({ [`k${FFFD}`]: [`x${FFFD}`, { deep: `y${FFFD}` }], same: clean });
    expect(out.same).toBe(clean);
  });

  it('keeps a `__proto__` key as an own property, never as a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "x\\u0000"}, "constructor": {"prototype": 1}}') as Record<string, unknown>;
    const out = storableJson(parsed);
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: `x${FFFD}` });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
