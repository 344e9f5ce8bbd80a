import { isIPv4, isIPv6 } from 'node:net';

/**
 * The one classification of IP addresses for every outbound connection the server makes for a
 * team (webhook deliveries, model endpoints, the sandbox's egress proxy). Each caller decides what
 * it lets through by kind; the ranges themselves are listed here only, so the callers cannot
 * drift apart.
 *
 * - `public`: globally reachable unicast.
 * - `private`: RFC 1918 (10/8, 172.16/12, 192.168/16) and unique local IPv6 (fc00::/7), where
 *   self-hosted services live.
 * - `special`: everything else the IANA special-purpose registries mark as not globally
 *   reachable (loopback, link-local, shared/CGNAT, multicast, unspecified, documentation,
 *   benchmarking, reserved, …) and the cloud metadata services, even the ones inside a private
 *   or public range.
 *
 * An IPv6 address that embeds an IPv4 one (IPv4-mapped, NAT64, 6to4) reaches that address, so it
 * is judged by it.
 */
export type AddressKind = 'public' | 'private' | 'special';

export interface AddressVerdict {
  address: string;
  family: 4 | 6;
  kind: AddressKind;
  /** What a non-public address is ("a loopback address"); null for a public one. */
  what: string | null;
}

type Range = [base: string, bits: number, what: string, kind: Exclude<AddressKind, 'public'>];

/** Cloud metadata services: judged before the ranges they sit in (one is private, one public). */
const METADATA: Range[] = [
  ['169.254.169.254', 32, 'a link-local address (a cloud metadata service)', 'special'],
  ['169.254.170.2', 32, 'a link-local address (a cloud metadata service)', 'special'],
  ['100.100.100.200', 32, 'a cloud metadata address', 'special'],
  ['168.63.129.16', 32, 'a cloud metadata address', 'special'],
  ['fd00:ec2::254', 128, 'a cloud metadata address', 'special'],
];

const V4_RANGES: Range[] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address', 'special'],
  ['10.0.0.0', 8, 'a private address', 'private'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address', 'special'],
  ['127.0.0.0', 8, 'a loopback address', 'special'],
  ['169.254.0.0', 16, 'a link-local address', 'special'],
  ['172.16.0.0', 12, 'a private address', 'private'],
  ['192.0.0.0', 24, 'an IETF protocol assignment', 'special'],
  ['192.0.2.0', 24, 'a documentation address', 'special'],
  ['192.88.99.0', 24, 'a 6to4 relay address', 'special'],
  ['192.168.0.0', 16, 'a private address', 'private'],
  ['198.18.0.0', 15, 'a benchmarking address', 'special'],
  ['198.51.100.0', 24, 'a documentation address', 'special'],
  ['203.0.113.0', 24, 'a documentation address', 'special'],
  ['224.0.0.0', 4, 'a multicast address', 'special'],
  ['240.0.0.0', 4, 'a reserved (or broadcast) address', 'special'],
];

/** Inside global unicast (2000::/3), the blocks that are not globally reachable. */
const V6_RANGES: Range[] = [
  ['2001::', 23, 'an IETF protocol assignment (Teredo, ORCHID, …)', 'special'],
  ['2001:db8::', 32, 'a documentation address', 'special'],
  ['3fff::', 20, 'a documentation address', 'special'],
];
/** Outside global unicast, named for a clearer message (anything else there is "reserved"). */
const V6_NAMED: Range[] = [
  ['::', 128, 'an unspecified address', 'special'],
  ['::1', 128, 'a loopback address', 'special'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address', 'special'],
  ['100::', 64, 'a discard-only address', 'special'],
  ['5f00::', 16, 'a segment-routing address', 'special'],
  ['fc00::', 7, 'a unique local (private) address', 'private'],
  ['fe80::', 10, 'a link-local address', 'special'],
  ['fec0::', 10, 'a site-local address', 'special'],
  ['ff00::', 8, 'a multicast address', 'special'],
];

type Judged = { what: string; kind: Exclude<AddressKind, 'public'> } | null;

/** The 4 bytes of an IPv4 address. */
export function v4Bytes(address: string): number[] {
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

/** Whether the first `bits` bits of `bytes` equal those of `base` (same length). */
export function inRange(bytes: readonly number[], base: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3]! & mask) !== (base[i >> 3]! & mask)) return false;
  }
  return true;
}

const bytesOf = (base: string) => (base.includes(':') ? v6Bytes(base) : v4Bytes(base));
const find = (ranges: Range[], bytes: number[]): Judged => {
  const found = ranges.find(([base, bits]) => bytesOf(base).length === bytes.length && inRange(bytes, bytesOf(base), bits));
  return found ? { what: found[2], kind: found[3] } : null;
};

function judge4(bytes: number[]): Judged {
  return find(METADATA, bytes) ?? find(V4_RANGES, bytes);
}

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) address stands for, or null. */
export function mappedV4(bytes: readonly number[]): number[] | null {
  const zero = bytes.slice(0, 10).every((b) => b === 0);
  return zero && bytes[10] === 0xff && bytes[11] === 0xff ? bytes.slice(12, 16) : null;
}

function judge6(bytes: number[]): Judged {
  const embedded = (v4: number[], form: string): Judged => {
    const verdict = judge4(v4);
    return verdict ? { what: `${form} of ${verdict.what}`, kind: verdict.kind } : null;
  };
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address they carry.
  const mapped = mappedV4(bytes);
  if (mapped) return embedded(mapped, 'an IPv4-mapped form');
  if (inRange(bytes, v6Bytes('64:ff9b::'), 96)) return embedded(bytes.slice(12, 16), 'a NAT64 form');
  const named = find(METADATA, bytes) ?? find(V6_NAMED, bytes);
  if (named) return named;
  if (bytes.slice(0, 12).every((b) => b === 0)) return { what: 'an IPv4-compatible (deprecated) address', kind: 'special' };
  if (!inRange(bytes, v6Bytes('2000::'), 3)) return { what: 'a reserved address', kind: 'special' };
  // 6to4 (2002:a.b.c.d::/48) is relayed to the IPv4 address it carries.
  if (inRange(bytes, v6Bytes('2002::'), 16)) return embedded(bytes.slice(2, 6), 'a 6to4 form');
  return find(V6_RANGES, bytes);
}

/** Classifies one IP address (v4 or v6 text); throws on anything that is not one. */
export function judgeAddress(address: string): AddressVerdict {
  let family: 4 | 6;
  let judged: Judged;
  if (isIPv4(address)) {
    family = 4;
    judged = judge4(v4Bytes(address));
  } else if (isIPv6(address.split('%')[0]!)) {
    family = 6;
    // A zone names an interface of this host: whatever the address, it is reached locally.
    judged = address.includes('%') ? { what: 'a scoped (zone) address', kind: 'special' } : judge6(v6Bytes(address));
  } else {
    throw new Error(`not an IP address: ${address}`);
  }
  return judged ? { address, family, kind: judged.kind, what: judged.what } : { address, family, kind: 'public', what: null };
}
