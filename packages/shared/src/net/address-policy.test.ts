import { describe, expect, it } from 'vitest';
import { ADDRESS_CASES } from '../testing/address-cases';
import { judgeAddress, v6Bytes } from './address-policy';

describe('the address classification', () => {
  for (const { address, kind, what } of ADDRESS_CASES) {
    it(`${address} is ${kind}${what ? ` (${what.source})` : ''}`, () => {
      const verdict = judgeAddress(address);
      expect(verdict.kind).toBe(kind);
      if (what) expect(verdict.what).toMatch(what);
      else expect(verdict.what).toBeNull();
    });
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
