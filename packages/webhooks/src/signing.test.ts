import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, signedHeaders } from './signing';

describe('Standard Webhooks signatures', () => {
  it('a secret is whsec_ and 32 random bytes in base64', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('the reference implementation verifies what we sign, and only with our secret', () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ type: 'run.finished', timestamp: new Date().toISOString(), data: { runId: 'r1' } });
    const headers = signedHeaders(secret, 'msg_abc', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow(/signature/i);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(/signature/i);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow(/signature/i);
  });

  it('matches the reference signature byte for byte', () => {
    const secret = generateSigningSecret();
    const at = new Date(1_767_225_600_000);
    expect(signedHeaders(secret, 'msg_1', at.getTime() / 1000, '{"a":1}')['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', at, '{"a":1}'));
  });

  it('refuses a secret that is not one', () => {
    expect(() => signedHeaders('not-a-secret', 'msg_1', 1, '{}')).toThrow(/whsec_/);
    expect(() => signedHeaders('whsec_c2hvcnQ=', 'msg_1', 1, '{}')).toThrow(/24 bytes/);
  });
});
