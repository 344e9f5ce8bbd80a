import { describe, expect, it } from 'vitest';
import { passwordSchema } from './schemas';

describe('passwordSchema', () => {
  it('refuses short, common and repetitive passwords with the reason, and takes good ones', () => {
    const refused = (p: string) => {
      const result = passwordSchema.safeParse(p);
      return result.success ? null : result.error.issues[0]!.message;
    };
    expect(refused('short')).toMatch(/at least 8/);
    expect(refused('password')).toMatch(/most common/);
    expect(refused('PassWord1')).toMatch(/most common/);
    expect(refused('12345678')).toMatch(/most common/);
    expect(refused('aaaaaaaaaaaa')).toMatch(/repeats/);
    expect(refused('abababababab')).toMatch(/repeats/);
    expect(refused('member-password-1')).toBeNull();
    expect(refused('correct horse battery')).toBeNull();
  });
});
