import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quoteLiteral } from './literal';

const escapeLiteral = (value: string) => new pg.Client().escapeLiteral(value);

describe('quoteLiteral', () => {
  it('writes what node-postgres escapeLiteral writes', () => {
    const cases = [
      '',
      'plain',
      "it's",
      "''",
      'back\\slash',
      "both ' and \\ and \\' and '\\",
      '\\',
      'ünïcode "quoted" 💥\nline\ttab',
      JSON.stringify({ text: 'O\'Brien said "hi" \\o/', nested: [{ a: '\\u0000' }] }),
    ];
    for (const value of cases) expect(quoteLiteral(value)).toBe(escapeLiteral(value));
  });
});
