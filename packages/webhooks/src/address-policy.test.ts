import { describe, expect, it } from 'vitest';
import { judgeAddress, v6Bytes } from './address-policy';

describe('which addresses a webhook may reach', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /reserved|broadcast/],
    ['240.0.0.1', /reserved/],
    ['192.0.2.7', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['::ffff:127.0.0.1', /IPv4-mapped form of a loopback/],
    ['::ffff:7f00:1', /IPv4-mapped form of a loopback/],
    ['::ffff:10.0.0.1', /IPv4-mapped form of a private/],
    ['::ffff:169.254.169.254', /IPv4-mapped form of a link-local/],
    ['64:ff9b::a9fe:a9fe', /NAT64 form of a link-local/],
    ['2002:7f00:1::', /6to4 form of a loopback/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /scoped/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fec0::1', /site-local/],
    ['ff02::1', /multicast/],
    ['2001:db8::1', /documentation/],
    ['2001::1', /IETF protocol assignment/],
    ['100::1', /discard/],
    ['4000::1', /reserved/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => expect(judgeAddress(address).refusal).toMatch(reason));
  }

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const address of allowed) {
    it(`allows ${address}`, () => expect(judgeAddress(address)).toMatchObject({ refusal: null }));
  }

  it('says the family', () => {
    expect(judgeAddress('8.8.8.8').family).toBe(4);
    expect(judgeAddress('2606:4700::1').family).toBe(6);
  });

  it('reads every IPv6 spelling into the same bytes', () => {
    expect(v6Bytes('::ffff:127.0.0.1')).toEqual(v6Bytes('0:0:0:0:0:ffff:7f00:0001'));
    expect(v6Bytes('2001:db8::1')).toEqual([0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]);
    expect(v6Bytes('::')).toEqual(Array(16).fill(0));
  });

  it('throws on something that is not an address', () => {
    expect(() => judgeAddress('example.com')).toThrow(/not an IP address/);
  });
});
