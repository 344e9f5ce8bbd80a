import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { SECRET_PREFIX } from './signing';

/** How far a delivery's `webhook-timestamp` may be from now (Standard Webhooks' replay window). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The Standard Webhooks headers of a received request (absent ones undefined). */
export interface SignedRequestHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/** Why a received request's signature is refused; each says what the sender must fix. */
export type SignatureRefusal = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature';

export type SignatureVerdict = { ok: true } | { ok: false; refusal: SignatureRefusal };

/**
 * Verifies a received request signed per the Standard Webhooks spec with `secret` (`whsec_…`):
 * `webhook-signature` holds one or more space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * (several while a sender rotates keys), compared in constant time; a timestamp more than
 * {@link SIGNATURE_TOLERANCE_SECONDS} from `nowSeconds` is refused, so a captured request cannot be
 * replayed later. The signature is checked before the timestamp is trusted for anything.
 */
export function verifySignedRequest(secret: string, headers: SignedRequestHeaders, body: string, nowSeconds: number): SignatureVerdict {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, refusal: 'missing_headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, refusal: 'bad_timestamp' };
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const matches = signature.split(' ').some((part) => {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, refusal: 'bad_signature' };
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return { ok: false, refusal: 'stale_timestamp' };
  return { ok: true };
}

/** Whether `given` is `expected`, in time that does not depend on where they differ (both hashed first, so lengths leak nothing). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
