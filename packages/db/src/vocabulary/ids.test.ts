import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('looks like a cuid and does not repeat', () => {
    const ids = Array.from({ length: 10_000 }, newId);
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^c[0-9a-z]{24}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
