import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { escapeReservedKey, escapeReservedKeys, restoreReservedKey, restoreReservedKeys } from './reserved-keys';
import { wireTransformer } from './transformer';

/** Arguments as a model may send them: JSON.parse makes each of these keys an own property. */
const modelArgs = () =>
  JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}, "~__proto__": "tilde", "~~constructor": 2, "path": "a"}') as Record<
    string,
    unknown
  >;

describe('reserved keys on the wire', () => {
  it('escapes exactly the keys superjson refuses, one to one', () => {
    for (const key of ['__proto__', 'constructor', 'prototype', '~__proto__', '~~prototype', 'path', '~', 'x__proto__', '__proto__x', '']) {
      expect(restoreReservedKey(escapeReservedKey(key))).toBe(key);
    }
    expect(escapeReservedKey('__proto__')).toBe('~__proto__');
    expect(escapeReservedKey('~constructor')).toBe('~~constructor');
    expect(escapeReservedKey('path')).toBe('path');
    expect(escapeReservedKey('~path')).toBe('~path');
  });

  it('round-trips stored JSON with any of those keys through the transformer, as own properties', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    const answer = { items: [{ args: modelArgs(), at: when }], total: 1n };
    expect(() => superjson.serialize(answer)).toThrow(/__proto__/);
    const wire = JSON.parse(JSON.stringify(wireTransformer.serialize(answer))) as Parameters<typeof wireTransformer.deserialize>[0];
    expect(Object.keys((wire.json as { items: { args: object }[] }).items[0]!.args)).toEqual([
      '~__proto__',
      '~constructor',
      '~~__proto__',
      '~~~constructor',
      'path',
    ]);
    const back = wireTransformer.deserialize<typeof answer>(wire);
    const args = back.items[0]!.args;
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor', '~__proto__', '~~constructor', 'path']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ isAdmin: true });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(back.items[0]!.at).toEqual(when);
    expect(back.total).toBe(1n);
    expect(JSON.stringify(args)).toBe(JSON.stringify(modelArgs()));
  });

  it('leaves values without reserved keys as the same objects', () => {
    const value = { a: [{ b: 1 }], c: new Date(0), d: new Map([['__proto__', 1]]) };
    expect(escapeReservedKeys(value)).toBe(value);
    expect(restoreReservedKeys(value)).toBe(value);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(escapeReservedKeys(cyclic)).toBe(cyclic);
  });
});
