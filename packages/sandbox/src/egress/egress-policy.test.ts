import { ADDRESS_CASES } from '@looplane/shared/testing';
import { describe, expect, it } from 'vitest';
import { credentialsFor, egressPolicySchema, isAllowed, isPrivateAddress, normalizeHost } from './egress-policy';

const policy = egressPolicySchema.parse({
  allow: ['api.github.com:443', '*.example.com:443', '10.0.0.5:8080', '[::1]:9000'],
  credentials: [
    { host: 'api.github.com', headers: { Authorization: 'token x' } },
    { host: 'api.github.com', port: 80, headers: { 'X-Only-80': '1' } },
    { host: 'plain.example.com', headers: { 'X-Plain': 'p' }, insecure: true },
  ],
});

describe('egress policy', () => {
  it('matches host and port exactly, wildcards only for subdomains', () => {
    expect(isAllowed(policy, 'API.GitHub.com.', 443)).toBe(true);
    expect(isAllowed(policy, 'api.github.com', 80)).toBe(false);
    expect(isAllowed(policy, 'evil-api.github.com', 443)).toBe(false);
    expect(isAllowed(policy, 'a.b.example.com', 443)).toBe(true);
    expect(isAllowed(policy, 'example.com', 443)).toBe(false);
    expect(isAllowed(policy, 'notexample.com', 443)).toBe(false);
    expect(isAllowed(policy, '10.0.0.5', 8080)).toBe(true);
    expect(isAllowed(policy, '[::1]', 9000)).toBe(true);
  });

  it('finds credentials by host, and by port when the entry names one', () => {
    expect(credentialsFor(policy, 'api.github.com', 443, true)).toEqual({ headers: { Authorization: 'token x' }, withheld: [] });
    expect(credentialsFor(policy, 'api.github.com', 80, true)).toEqual({ headers: { Authorization: 'token x', 'X-Only-80': '1' }, withheld: [] });
    expect(credentialsFor(policy, 'other.com', 443, true)).toEqual({ headers: {}, withheld: [] });
  });

  it('sends credentials over plain HTTP only when the entry says insecure', () => {
    expect(credentialsFor(policy, 'api.github.com', 80, false)).toEqual({ headers: {}, withheld: ['Authorization', 'X-Only-80'] });
    expect(credentialsFor(policy, 'plain.example.com', 80, false)).toEqual({ headers: { 'X-Plain': 'p' }, withheld: [] });
  });

  it('recognises private, loopback, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['1.1.1.1', '140.82.112.3', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('judges every address of the shared table as webhooks do: only public addresses are not private', () => {
    for (const { address, kind } of ADDRESS_CASES) expect(isPrivateAddress(address), address).toBe(kind !== 'public');
  });

  it('refuses malformed allow entries', () => {
    expect(() => egressPolicySchema.parse({ allow: ['github.com'] })).toThrow();
    expect(() => egressPolicySchema.parse({ allow: ['http://github.com:443'] })).toThrow();
    expect(normalizeHost('[FE80::1]')).toBe('fe80::1');
  });
});
