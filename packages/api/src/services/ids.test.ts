import { newId } from '@looplane/db';
import { describe, expect, it } from 'vitest';
import { idSchema } from '../schemas';

describe('newId', () => {
  it('makes ids the API accepts', () => {
    for (let i = 0; i < 50; i++) expect(idSchema.safeParse(newId()).success).toBe(true);
  });
});
