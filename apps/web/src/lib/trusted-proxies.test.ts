import { describe, expect, it } from 'vitest';
import { parseTrustedProxies, plainAddress } from './trusted-proxies';

describe('parseTrustedProxies', () => {
  it('trusts nobody when unset', () => {
    const none = parseTrustedProxies(undefined);
    expect(none.entries).toEqual([]);
    expect(none.trusts('127.0.0.1')).toBe(false);
  });

  it('matches single addresses and CIDR blocks of both families, IPv4-mapped peers included', () => {
    const proxies = parseTrustedProxies(' 127.0.0.1, 10.0.0.0/8 ,2001:db8::/32, ::1');
    expect(proxies.entries).toEqual(['127.0.0.1', '10.0.0.0/8', '2001:db8::/32', '::1']);
    expect(proxies.trusts('127.0.0.1')).toBe(true);
    expect(proxies.trusts('::ffff:127.0.0.1')).toBe(true);
    expect(proxies.trusts('10.200.3.4')).toBe(true);
    expect(proxies.trusts('11.0.0.1')).toBe(false);
    expect(proxies.trusts('2001:db8:ff::1')).toBe(true);
    expect(proxies.trusts('2001:db9::1')).toBe(false);
    expect(proxies.trusts('::1')).toBe(true);
    expect(proxies.trusts('not-an-ip')).toBe(false);
  });

  it('names a bad entry', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8,proxy.internal')).toThrow('"proxy.internal" is not an IP address or CIDR block');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow('"10.0.0.0/33" has a bad prefix length');
    expect(() => parseTrustedProxies('10.0.0.0/8/1')).toThrow('is not an IP address or CIDR block');
  });

  it('reads socket addresses plainly', () => {
    expect(plainAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(plainAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(plainAddress('fe80::1%eth0')).toBe('fe80::1');
  });
});
