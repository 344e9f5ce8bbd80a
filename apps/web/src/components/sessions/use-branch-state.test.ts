import { describe, expect, it } from 'vitest';
import { parseCompare } from './use-branch-state';

describe('parseCompare', () => {
  it('reads at most two id-shaped branch ids from ?compare=, dropping anything else', () => {
    expect(parseCompare(null)).toEqual([]);
    expect(parseCompare('')).toEqual([]);
    expect(parseCompare('abc,def')).toEqual(['abc', 'def']);
    expect(parseCompare('abc,def,ghi')).toEqual(['abc', 'def']);
    expect(parseCompare('abc,<script>,def')).toEqual(['abc', 'def']);
    expect(parseCompare(`abc,${'x'.repeat(65)}`)).toEqual(['abc']);
  });
});
