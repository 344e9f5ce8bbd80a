import { describe, expect, it } from 'vitest';
import { decodeEvent } from '../events/event-codec';
import { MAX_ARGS_DEPTH, parseToolArgs } from './parse-args';

describe('parseToolArgs', () => {
  it('keeps every key a model sends as an own property, and pollutes no prototype', () => {
    const { args } = parseToolArgs('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}, "path": "a"}');
    expect(Object.keys(args)).toEqual(['__proto__', 'constructor', 'path']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ isAdmin: true });
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // Spreading the arguments copies the key as data, too.
    const copy: Record<string, unknown> = { ...args };
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.isAdmin).toBeUndefined();
    expect(JSON.parse(JSON.stringify(args))).toEqual(JSON.parse(JSON.stringify(copy)));
  });

  it('records NUL and unpaired surrogates as U+FFFD and marks the arguments', () => {
    expect(parseToolArgs('{"text":"a\\u0000b\\ud800"}')).toEqual({ args: { text: 'a\uFFFDb\uFFFD' }, sanitized: true });
    expect(parseToolArgs('{"text":"🙂"}')).toEqual({ args: { text: '🙂' } });
    expect(parseToolArgs('not json \u0000')).toMatchObject({ args: {}, rawArgs: 'not json \uFFFD', sanitized: true });
  });

  it('refuses arguments nested deeper than the limit, without parsing them', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(parseToolArgs(`{"a":${deep}}`)).toMatchObject({ args: {}, argsError: `arguments nest deeper than ${MAX_ARGS_DEPTH} levels` });
    const ok = `{"a":${'['.repeat(MAX_ARGS_DEPTH - 1)}${']'.repeat(MAX_ARGS_DEPTH - 1)}}`;
    expect(parseToolArgs(ok).argsError).toBeUndefined();
    // Brackets inside strings are text.
    expect(parseToolArgs(`{"a":"${'['.repeat(500)}\\""}`).argsError).toBeUndefined();
  });
});

describe('tool arguments through the event codec', () => {
  it('decode keeps a `__proto__` key, so a replayed log holds the arguments the live run had', () => {
    const { args } = parseToolArgs('{"__proto__": {"x": 1}, "constructor": 2, "prototype": [3], "a": "b"}');
    const stored = JSON.parse(JSON.stringify({ callId: 'call-1', requestId: 'req-1', name: 'echo', args })) as unknown;
    const decoded = decodeEvent({ seq: 1, type: 'tool.requested', v: 1, at: '2026-01-01T00:00:00.000Z', payload: stored });
    const decodedArgs = (decoded.payload as { args: Record<string, unknown> }).args;
    expect(Object.keys(decodedArgs)).toEqual(['__proto__', 'constructor', 'prototype', 'a']);
    expect(Object.getPrototypeOf(decodedArgs)).toBe(Object.prototype);
    expect(JSON.stringify(decodedArgs)).toBe(JSON.stringify(args));
    expect(() =>
      decodeEvent({ seq: 1, type: 'tool.requested', v: 1, at: '2026-01-01T00:00:00.000Z', payload: { callId: 'c', requestId: 'r', name: 'n', args: [1] } }),
    ).toThrow(/malformed at args/);
  });
});
