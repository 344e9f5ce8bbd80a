import type { AddressKind } from '../net/address-policy';

/** One row of the shared address table: an address, its kind, and what the refusal calls it. */
export interface AddressCase {
  address: string;
  kind: AddressKind;
  /** Matches the verdict's `what` (absent for public addresses). */
  what?: RegExp;
}

/**
 * The one table of addresses every outbound policy is tested against (webhooks, model endpoints,
 * the sandbox's egress proxy): each derives what it expects from `kind`, so a range one of them
 * judges differently from the others fails its own test.
 */
export const ADDRESS_CASES: readonly AddressCase[] = [
  // Loopback, unspecified, link-local and the cloud metadata services.
  { address: '127.0.0.1', kind: 'special', what: /loopback/ },
  { address: '127.255.0.9', kind: 'special', what: /loopback/ },
  { address: '0.0.0.0', kind: 'special', what: /unspecified/ },
  { address: '169.254.0.1', kind: 'special', what: /link-local/ },
  { address: '169.254.169.254', kind: 'special', what: /link-local address \(a cloud metadata service\)/ },
  { address: '169.254.170.2', kind: 'special', what: /cloud metadata/ },
  { address: '100.100.100.200', kind: 'special', what: /cloud metadata/ },
  { address: '168.63.129.16', kind: 'special', what: /cloud metadata/ },
  { address: 'fd00:ec2::254', kind: 'special', what: /cloud metadata/ },
  { address: '::1', kind: 'special', what: /loopback/ },
  { address: '::', kind: 'special', what: /unspecified/ },
  { address: 'fe80::1', kind: 'special', what: /link-local/ },
  { address: 'febf:ffff::1', kind: 'special', what: /link-local/ },
  { address: 'fe80::1%eth0', kind: 'special', what: /scoped/ },
  // The other special-purpose ranges.
  { address: '100.64.0.1', kind: 'special', what: /carrier-grade NAT/ },
  { address: '100.127.255.255', kind: 'special', what: /carrier-grade NAT/ },
  { address: '192.0.0.8', kind: 'special', what: /IETF protocol assignment/ },
  { address: '192.0.2.7', kind: 'special', what: /documentation/ },
  { address: '198.51.100.1', kind: 'special', what: /documentation/ },
  { address: '203.0.113.9', kind: 'special', what: /documentation/ },
  { address: '192.88.99.1', kind: 'special', what: /6to4 relay/ },
  { address: '198.18.0.1', kind: 'special', what: /benchmarking/ },
  { address: '224.0.0.1', kind: 'special', what: /multicast/ },
  { address: '239.255.255.250', kind: 'special', what: /multicast/ },
  { address: '240.0.0.1', kind: 'special', what: /reserved/ },
  { address: '255.255.255.255', kind: 'special', what: /reserved|broadcast/ },
  { address: 'fec0::1', kind: 'special', what: /site-local/ },
  { address: 'ff02::1', kind: 'special', what: /multicast/ },
  { address: '2001:db8::1', kind: 'special', what: /documentation/ },
  { address: '3fff::1', kind: 'special', what: /documentation/ },
  { address: '2001::1', kind: 'special', what: /IETF protocol assignment/ },
  { address: '100::1', kind: 'special', what: /discard/ },
  { address: '64:ff9b:1::1', kind: 'special', what: /local-use NAT64/ },
  { address: '4000::1', kind: 'special', what: /reserved/ },
  { address: '::127.0.0.1', kind: 'special', what: /IPv4-compatible/ },
  // Embedded IPv4 addresses are judged by the address they reach.
  { address: '::ffff:127.0.0.1', kind: 'special', what: /IPv4-mapped form of a loopback/ },
  { address: '::ffff:7f00:1', kind: 'special', what: /IPv4-mapped form of a loopback/ },
  { address: '::ffff:169.254.169.254', kind: 'special', what: /IPv4-mapped form of a link-local/ },
  { address: '64:ff9b::a9fe:a9fe', kind: 'special', what: /NAT64 form of a link-local/ },
  { address: '2002:7f00:1::', kind: 'special', what: /6to4 form of a loopback/ },
  { address: '::ffff:10.0.0.1', kind: 'private', what: /IPv4-mapped form of a private/ },
  { address: '64:ff9b::c0a8:101', kind: 'private', what: /NAT64 form of a private/ },
  // Private ranges: where self-hosted services live.
  { address: '10.1.2.3', kind: 'private', what: /private/ },
  { address: '172.16.0.1', kind: 'private', what: /private/ },
  { address: '172.31.255.255', kind: 'private', what: /private/ },
  { address: '192.168.1.1', kind: 'private', what: /private/ },
  { address: 'fc00::1', kind: 'private', what: /unique local/ },
  { address: 'fd12:3456::1', kind: 'private', what: /unique local/ },
  // Public.
  { address: '8.8.8.8', kind: 'public' },
  { address: '1.1.1.1', kind: 'public' },
  { address: '140.82.112.3', kind: 'public' },
  { address: '172.32.0.1', kind: 'public' },
  { address: '100.128.0.1', kind: 'public' },
  { address: '192.169.0.1', kind: 'public' },
  { address: '169.255.0.1', kind: 'public' },
  { address: '2606:4700:4700::1111', kind: 'public' },
  { address: '2a00:1450:4001:80b::200e', kind: 'public' },
  { address: '::ffff:8.8.8.8', kind: 'public' },
  { address: '64:ff9b::808:808', kind: 'public' },
  { address: '2002:808:808::1', kind: 'public' },
];
