import { createHash, randomBytes } from 'node:crypto';

/** Every Looplane API token starts with this, so secret scanners can find leaked ones. */
export const TOKEN_PREFIX = 'llp_';
const DISPLAY_PREFIX_LENGTH = 12;

/** A new random token: `llp_` + 32 random bytes, base64url. */
export function generateApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The stored form of a token: hex SHA-256. Tokens have 256 bits of entropy, so no salt is needed. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The part of a token that is safe to display. */
export function displayPrefix(token: string): string {
  return token.slice(0, DISPLAY_PREFIX_LENGTH);
}
