import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' prefix of a signing secret; the rest is the key, base64. */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (shown to the admin once). */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a signing secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length < 24) throw new Error('a signing secret holds at least 24 bytes');
  return key;
}

/** The signed headers of one attempt (Standard Webhooks): `v1,` and the HMAC-SHA256 of `id.timestamp.body`. */
export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

/** A new delivery id: the `webhook-id` of every attempt of one delivery (`msg_` and 128 random bits). */
export function newDeliveryId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}
