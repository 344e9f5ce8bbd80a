import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/**
 * What a run may reach. `allow` entries are `host:port`, `*.domain:port` (subdomains only) or
 * `ip:port` (IPv6 in brackets). Credentials are headers the proxy adds for one host; the sandbox
 * never sees them. A name that resolves to a private, loopback or link-local address is refused
 * unless `allowPrivateAddresses` (a public name pointed at 127.0.0.1 must not reach the database);
 * an allowed IP literal is taken as meant.
 */
export const egressPolicySchema = z.object({
  allow: z
    .array(z.string().regex(/^(\*\.)?[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/, 'allow entries are host:port, *.domain:port or [ipv6]:port'))
    .default([]),
  credentials: z
    .array(z.object({ host: z.string().min(1), port: z.int().min(1).max(65535).optional(), headers: z.record(z.string(), z.string()) }))
    .default([]),
  allowPrivateAddresses: z.boolean().default(false),
});
export type EgressPolicy = z.output<typeof egressPolicySchema>;
export type EgressPolicyInput = z.input<typeof egressPolicySchema>;

/** Lower-case, no trailing dot, no IPv6 brackets. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}

/** Whether `host:port` matches an allow entry. */
export function isAllowed(policy: EgressPolicy, host: string, port: number): boolean {
  const wanted = normalizeHost(host);
  return policy.allow.some((entry) => {
    const split = entry.lastIndexOf(':');
    if (Number(entry.slice(split + 1)) !== port) return false;
    const pattern = normalizeHost(entry.slice(0, split));
    if (pattern.startsWith('*.')) return wanted.endsWith(pattern.slice(1)) && wanted.length > pattern.length - 1;
    return wanted === pattern;
  });
}

/** The headers to inject for a destination (exact host; port when the entry names one). */
export function credentialsFor(policy: EgressPolicy, host: string, port: number): Record<string, string> {
  const wanted = normalizeHost(host);
  const headers: Record<string, string> = {};
  for (const entry of policy.credentials) {
    if (normalizeHost(entry.host) === wanted && (entry.port === undefined || entry.port === port)) Object.assign(headers, entry.headers);
  }
  return headers;
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Loopback, private, link-local, CGNAT, multicast and unspecified addresses (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
