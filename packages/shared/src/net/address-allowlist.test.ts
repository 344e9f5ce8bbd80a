import { describe, expect, it } from 'vitest';
import { addressAllowlistSchema, allowlistPermits, parseAddressAllowlist } from './address-allowlist';
import { judgeAddress } from './address-policy';

const permits = (list: string, host: string, port: number, address = host) =>
  allowlistPermits(parseAddressAllowlist(list), { host, port }, judgeAddress(address));

describe('LOOPLANE_ENDPOINTS_ALLOW', () => {
  it('an address entry allows that address on any port; with a port, on that port only', () => {
    expect(permits('127.0.0.1', '127.0.0.1', 8080)).toBe(true);
    expect(permits('127.0.0.1', '127.0.0.2', 8080)).toBe(false);
    expect(permits('127.0.0.1:8080', '127.0.0.1', 8080)).toBe(true);
    expect(permits('127.0.0.1:8080', '127.0.0.1', 8081)).toBe(false);
    expect(permits('::1', '::1', 80)).toBe(true);
    expect(permits('[::1]', '::1', 80)).toBe(true);
    expect(permits('[::1]:11434', '::1', 11434)).toBe(true);
    expect(permits('[::1]:11434', '::1', 11435)).toBe(false);
    expect(permits('[0:0::1]', '::1', 80)).toBe(true);
  });

  it('an address entry matches the address a name resolved to', () => {
    expect(permits('127.0.0.1:8080', 'localhost', 8080, '127.0.0.1')).toBe(true);
    expect(permits('127.0.0.1:8080', 'localhost', 8080, '::1')).toBe(false);
  });

  it('a host entry allows whatever that name resolves to (on its port when it names one)', () => {
    expect(permits('localhost', 'LOCALHOST.', 3000, '::1')).toBe(true);
    expect(permits('models.lan:8000', 'models.lan', 8000, '169.254.3.4')).toBe(true);
    expect(permits('models.lan:8000', 'models.lan', 8001, '169.254.3.4')).toBe(false);
    expect(permits('models.lan', 'other.lan', 8000, '169.254.3.4')).toBe(false);
  });

  it('a range allows every address in it, IPv4-mapped forms included', () => {
    expect(permits('169.254.0.0/16', '169.254.169.254', 80)).toBe(true);
    expect(permits('169.254.0.0/16', '169.253.1.1', 80)).toBe(false);
    expect(permits('127.0.0.0/8', '::ffff:127.0.0.9', 80)).toBe(true);
    expect(permits('::ffff:127.0.0.1', '127.0.0.1', 80)).toBe(false);
    expect(permits('fe80::/10', 'fe80::1', 80)).toBe(true);
    expect(permits('fe80::/10', 'fec0::1', 80)).toBe(false);
    expect(permits('10.0.0.0/8, ::1/128', '::1', 80)).toBe(true);
  });

  it('an empty list allows nothing; blank entries are ignored', () => {
    expect(parseAddressAllowlist('')).toEqual([]);
    expect(parseAddressAllowlist(' , ,')).toEqual([]);
    expect(permits('', '127.0.0.1', 80)).toBe(false);
    expect(parseAddressAllowlist('localhost, ,127.0.0.1:1')).toHaveLength(2);
  });

  for (const bad of [
    'http://127.0.0.1',
    '127.0.0.1:0',
    '127.0.0.1:65536',
    'host:port',
    '10.0.0.0/33',
    '::1/129',
    'fe80::/x',
    '[::1]:x',
    '[nope]',
    'a b',
    '-bad.example',
  ]) {
    it(`refuses the entry ${bad}`, () => {
      expect(() => parseAddressAllowlist(`localhost,${bad}`)).toThrow(`("${bad}" is none of them)`);
    });
  }

  it('as an environment variable: parsed, or an issue naming the entry', () => {
    expect(addressAllowlistSchema.parse('127.0.0.1:8080')).toHaveLength(1);
    const result = addressAllowlistSchema.safeParse('127.0.0.1,nope:x');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be a comma-separated list of hosts, host:port or CIDR ranges ("nope:x" is none of them)');
  });
});
