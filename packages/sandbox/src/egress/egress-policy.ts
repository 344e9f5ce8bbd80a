import { isIP } from 'node:net';
import { judgeAddress } from '@looplane/shared/net';
import { z } from 'zod';

/**
 * What a run may reach. `allow` entries are `host:port`, `*.domain:port` (subdomains only) or
 * `ip:port` (IPv6 in brackets). Credentials are headers the proxy adds for one host; the sandbox
 * never sees them. They go only over TLS the proxy originates to that host (an `https://`
 * request), never into plain `http://` unless the entry says `insecure: true`. A name that
 * resolves to a private, loopback or link-local address is refused unless
 * `allowPrivateAddresses` (a public name pointed at 127.0.0.1 must not reach the database); an
 * allowed IP literal is taken as meant.
 */
export const egressPolicySchema = z.object({
  allow: z
    .array(z.string().regex(/^(\*\.)?[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/, 'allow entries are host:port, *.domain:port or [ipv6]:port'))
    .default([]),
  credentials: z
    .array(
      z.object({
        host: z.string().min(1),
        port: z.int().min(1).max(65535).optional(),
        headers: z.record(z.string(), z.string()),
        /** Also sent over plain HTTP, where anyone on the path can read it: only when the policy says so. */
        insecure: z.boolean().default(false),
      }),
    )
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

/**
 * The headers to inject for a destination (exact host; port when the entry names one). Over plain
 * HTTP (`tls` false) only `insecure` entries are sent; the names of the others are `withheld`.
 */
export function credentialsFor(policy: EgressPolicy, host: string, port: number, tls: boolean): { headers: Record<string, string>; withheld: string[] } {
  const wanted = normalizeHost(host);
  const headers: Record<string, string> = {};
  const withheld = new Set<string>();
  for (const entry of policy.credentials) {
    if (normalizeHost(entry.host) !== wanted || (entry.port !== undefined && entry.port !== port)) continue;
    if (tls || entry.insecure) Object.assign(headers, entry.headers);
    else for (const name of Object.keys(entry.headers)) withheld.add(name);
  }
  return { headers, withheld: [...withheld].filter((name) => !(name in headers)) };
}

/**
 * Any address that is not public: private, loopback, link-local, cloud metadata, CGNAT, multicast,
 * documentation, reserved, … (IPv4-mapped and other embedded forms judged by the IPv4 address),
 * as the one shared classification (`@looplane/shared/net`) says. Not an IP address: true.
 */
export function isPrivateAddress(address: string): boolean {
  return isIP(address) === 0 || judgeAddress(address).kind !== 'public';
}
