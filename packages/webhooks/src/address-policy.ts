import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a webhook may be delivered to: public unicast only. Everything the IANA
 * special-purpose registries mark as not globally reachable is refused (private, loopback,
 * link-local, shared/CGNAT, multicast, unspecified, documentation, benchmarking, reserved), and an
 * IPv6 address that embeds an IPv4 one (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 address.
 */

/** Why an address is not public, or null when it is. */
export type AddressVerdict = { address: string; family: 4 | 6; refusal: string | null };

type Range4 = [base: string, bits: number, what: string];
const V4_RANGES: Range4[] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol assignment'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved (or broadcast) address'],
];

type Range6 = [base: string, bits: number, what: string];
/** Inside global unicast (2000::/3), the blocks that are not globally reachable. */
const V6_RANGES: Range6[] = [
  ['2001::', 23, 'an IETF protocol assignment (Teredo, ORCHID, …)'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
];
/** Outside global unicast, named for a clearer message (anything else there is "reserved"). */
const V6_NAMED: Range6[] = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address'],
  ['100::', 64, 'a discard-only address'],
  ['5f00::', 16, 'a segment-routing address'],
  ['fc00::', 7, 'a unique local (private) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (`::`, an IPv4 tail and a `%zone` allowed). */
export function v6Bytes(address: string): number[] {
  const text = address.split('%')[0]!;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (part: string | null | undefined): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((group) => {
      if (group.includes('.')) {
        const [a, b, c, d] = v4Bytes(group) as [number, number, number, number];
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(group, 16)];
    });
  };
  const left = groups(head);
  const right = groups(tail);
  const words = tail === null ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function inRange(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (base[i >> 3]! & mask)) return false;
  }
  return true;
}

function judge4(bytes: number[]): string | null {
  const found = V4_RANGES.find(([base, bits]) => inRange(bytes, v4Bytes(base), bits));
  return found ? found[2] : null;
}

function judge6(bytes: number[]): string | null {
  const embedded = (from: number, what: string): string | null => {
    const verdict = judge4(bytes.slice(from, from + 4));
    return verdict ? `${what} of ${verdict}` : null;
  };
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address they carry.
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return embedded(12, 'an IPv4-mapped form');
  if (inRange(bytes, v6Bytes('64:ff9b::'), 96)) return embedded(12, 'a NAT64 form');
  const named = V6_NAMED.find(([base, bits]) => inRange(bytes, v6Bytes(base), bits));
  if (named) return named[2];
  if (zero(0, 12)) return 'an IPv4-compatible (deprecated) address';
  if (!inRange(bytes, v6Bytes('2000::'), 3)) return 'a reserved address';
  // 6to4 (2002:a.b.c.d::/48) is relayed to the IPv4 address it carries.
  if (inRange(bytes, v6Bytes('2002::'), 16)) return embedded(2, 'a 6to4 form');
  const found = V6_RANGES.find(([base, bits]) => inRange(bytes, v6Bytes(base), bits));
  return found ? found[2] : null;
}

/** Classifies one IP address (v4 or v6 text); throws on anything that is not one. */
export function judgeAddress(address: string): AddressVerdict {
  if (isIPv4(address)) return { address, family: 4, refusal: judge4(v4Bytes(address)) };
  if (isIPv6(address.split('%')[0]!)) return { address, family: 6, refusal: address.includes('%') ? 'a scoped (zone) address' : judge6(v6Bytes(address)) };
  throw new Error(`not an IP address: ${address}`);
}
