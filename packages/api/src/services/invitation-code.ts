import { createHash, randomBytes } from 'node:crypto';

/** How long an invitation can be accepted. */
export const INVITATION_TTL_DAYS = 7;

const CODE_PREFIX = 'llpi_';

/** A fresh invitation code: 256 random bits, shown once (only its hash is stored). */
export function generateInvitationCode(): string {
  return CODE_PREFIX + randomBytes(32).toString('base64url');
}

/** The stored form of a code: hex SHA-256 (256 bits of entropy need no salt). */
export function hashInvitationCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** The dashboard page an invitee opens with the code (sign up, or sign in and accept). */
export function invitationPath(code: string): string {
  return `/invite/${code}`;
}

/** An invitation's status as people see it: a pending one past its expiry is expired. */
export function invitationStatus(row: { status: 'pending' | 'accepted' | 'declined' | 'revoked'; expiresAt: Date }, now = new Date()) {
  return row.status === 'pending' && row.expiresAt.getTime() <= now.getTime() ? ('expired' as const) : row.status;
}
