import { BlockList, isIP } from 'node:net';

/** Which socket peers may tell us who the client is (`X-Forwarded-For`) and how it connected. */
export interface TrustedProxies {
  /** The entries as configured, for messages. */
  readonly entries: readonly string[];
  /** Whether `address` (as a socket reports it, IPv4-mapped IPv6 included) is one of them. */
  trusts(address: string): boolean;
}

/** `::ffff:10.0.0.1` (how a dual-stack socket reports an IPv4 peer) → `10.0.0.1`; a zone id is dropped. */
export function plainAddress(address: string): string {
  const value = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  return mapped ? mapped[1]! : value;
}

/**
 * Parses `LOOPLANE_TRUSTED_PROXIES`: a comma-separated list of IP addresses and CIDR blocks
 * (`10.0.0.0/8`, `2001:db8::/32`, `127.0.0.1`). Throws an Error naming the first bad entry.
 */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR block`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) throw new Error(`"${entry}" has a bad prefix length`);
    list.addSubnet(address, prefix, type);
  }
  return {
    entries,
    trusts(address) {
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
