import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { generatePassword, hashPassword, verifyPassword } from './password';
import { displayPrefix, generateApiToken, hashApiToken, TOKEN_PREFIX } from './api-token';
import { SecretBox } from './secret-box';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('s3cret passphrase');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('s3cret passphrase', hash)).toBe(true);
    expect(await verifyPassword('s3cret passphrasE', hash)).toBe(false);
  });

  it('salts every hash and refuses malformed stored hashes', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
    expect(await verifyPassword('x', 'plaintext')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
  });

  it('generates passwords with enough entropy', () => {
    expect(generatePassword()).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});

describe('API tokens', () => {
  it('are prefixed, random, and stored only as a hash', () => {
    const token = generateApiToken();
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(token).not.toBe(generateApiToken());
    expect(hashApiToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(token)).not.toContain(token.slice(4, 12));
    expect(displayPrefix(token)).toBe(token.slice(0, 12));
  });
});

describe('SecretBox', () => {
  const key = randomBytes(32).toString('base64');

  it('round-trips and never returns the plaintext in the sealed form', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('sk-live-abcdef');
    expect(sealed).not.toContain('sk-live');
    expect(box.open(sealed)).toBe('sk-live-abcdef');
  });

  it('detects tampering and a wrong key', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed)).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
