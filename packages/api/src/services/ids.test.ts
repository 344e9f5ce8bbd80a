import { describe, expect, it } from 'vitest';
import { idSchema } from '../schemas';
import { newId } from './ids';

describe('newId', () => {
  it('looks like a cuid, passes the id schema, and does not repeat', () => {
    const ids = Array.from({ length: 10_000 }, newId);
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^c[0-9a-z]{24}$/);
      expect(idSchema.safeParse(id).success).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
