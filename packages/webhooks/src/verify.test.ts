import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from './signing';
import { signWithReference } from './testing/sign';
import { secretsEqual, verifySignedRequest } from './verify';

const headersOf = (h: Record<string, string>) => ({ id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] });

describe('verifySignedRequest', () => {
  const secret = generateSigningSecret();
  const at = new Date('2026-12-06T12:00:00Z');
  const now = Math.floor(at.getTime() / 1000);
  const body = JSON.stringify({ subject: 'Quote request' });

  it('accepts a request signed by the reference implementation', () => {
    expect(verifySignedRequest(secret, headersOf(signWithReference(secret, 'msg_1', at, body)), body, now)).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, and a missing header', () => {
    const signed = headersOf(signWithReference(secret, 'msg_2', at, body));
    expect(verifySignedRequest(secret, signed, `${body} `, now)).toEqual({ ok: false, refusal: 'bad_signature' });
    expect(verifySignedRequest(generateSigningSecret(), signed, body, now)).toEqual({ ok: false, refusal: 'bad_signature' });
    expect(verifySignedRequest(secret, { ...signed, id: undefined }, body, now)).toEqual({ ok: false, refusal: 'missing_headers' });
    expect(verifySignedRequest(secret, { ...signed, timestamp: 'soon' }, body, now)).toEqual({ ok: false, refusal: 'bad_timestamp' });
  });

  it('refuses a timestamp more than five minutes away, either way', () => {
    const signed = headersOf(signWithReference(secret, 'msg_3', at, body));
    expect(verifySignedRequest(secret, signed, body, now + 300)).toEqual({ ok: true });
    expect(verifySignedRequest(secret, signed, body, now + 301)).toEqual({ ok: false, refusal: 'stale_timestamp' });
    expect(verifySignedRequest(secret, signed, body, now - 301)).toEqual({ ok: false, refusal: 'stale_timestamp' });
  });

  it('accepts any of several signatures (a sender rotating keys)', () => {
    const signed = headersOf(signWithReference(secret, 'msg_4', at, body));
    const other = headersOf(signWithReference(generateSigningSecret(), 'msg_4', at, body));
    expect(verifySignedRequest(secret, { ...signed, signature: `${other.signature} ${signed.signature}` }, body, now)).toEqual({ ok: true });
  });
});

describe('secretsEqual', () => {
  it('compares whole secrets', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
  });
});
