import { describe, expect, it } from 'vitest';
import { virtualRange } from './virtual-range';

describe('virtualRange', () => {
  it('renders only the rows in view plus overscan', () => {
    expect(virtualRange(0, 400, 40, 10_000, 5)).toEqual({ start: 0, end: 16, padTop: 0, padBottom: (10_000 - 16) * 40 });
    expect(virtualRange(40_000, 400, 40, 10_000, 5)).toEqual({ start: 995, end: 1016, padTop: 995 * 40, padBottom: (10_000 - 1016) * 40 });
  });

  it('stays inside the list at both ends and for short lists', () => {
    expect(virtualRange(1e9, 400, 40, 100, 5)).toMatchObject({ start: 100, end: 100, padBottom: 0 });
    expect(virtualRange(0, 400, 40, 3, 5)).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
    expect(virtualRange(-50, 400, 40, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });
});
