import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, utf8Length } from './tokens';

describe('token estimates', () => {
  it('counts UTF-8 bytes exactly, surrogate pairs included', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => utf8Length(s) === Buffer.byteLength(s, 'utf8')));
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });

  it('estimates one token per three bytes, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('€€€')).toBe(3);
  });
});
