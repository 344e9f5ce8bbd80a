import { isIP, isIPv6 } from 'node:net';
import { z } from 'zod';
import { inRange, mappedV4, v4Bytes, v6Bytes, type AddressVerdict } from './address-policy';

/**
 * An operator's list of destinations that outbound connections may reach although their address
 * is refused by default (LOOPLANE_ENDPOINTS_ALLOW): comma-separated hosts (`localhost`,
 * `127.0.0.1`, `::1`), `host:port` (`127.0.0.1:11434`, `[::1]:8080`, `models.lan:443`) or CIDR
 * ranges (`169.254.0.0/16`, `fd00::/8`).
 */
type AllowEntry =
  | { type: 'range'; text: string; bytes: number[]; bits: number }
  | { type: 'address'; text: string; bytes: number[]; port: number | null }
  | { type: 'host'; text: string; host: string; port: number | null };
export type AddressAllowlist = readonly AllowEntry[];

/** Where a connection goes: the URL's host (no brackets) and its port. */
export interface Destination {
  host: string;
  port: number;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?)*$/;

/** Lower-case, no trailing dot, no IPv6 brackets. */
const normalHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
const bytesOf = (address: string) => (isIPv6(address) ? v6Bytes(address) : v4Bytes(address));

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : null;
}

/** One entry, or null when it is none of the accepted forms. */
function parseEntry(text: string): AllowEntry | null {
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const base = text.slice(0, slash);
    const bits = text.slice(slash + 1);
    const family = isIP(base);
    if (family === 0 || !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return null;
    return { type: 'range', text, bytes: bytesOf(base), bits: Number(bits) };
  }
  // `[v6]` or `[v6]:port`; a bare v6 address (it has colons of its own) takes no port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    const port = bracketed[2] === undefined ? null : parsePort(bracketed[2]);
    if (!isIPv6(bracketed[1]!) || (bracketed[2] !== undefined && port === null)) return null;
    return { type: 'address', text, bytes: v6Bytes(bracketed[1]!), port };
  }
  if (isIPv6(text)) return { type: 'address', text, bytes: v6Bytes(text), port: null };
  const colon = text.lastIndexOf(':');
  const host = normalHost(colon >= 0 ? text.slice(0, colon) : text);
  const port = colon >= 0 ? parsePort(text.slice(colon + 1)) : null;
  if (colon >= 0 && port === null) return null;
  if (isIP(host) === 4) return { type: 'address', text, bytes: v4Bytes(host), port };
  return HOST_NAME.test(host) ? { type: 'host', text, host, port } : null;
}

/**
 * Parses a comma-separated allowlist (blank entries ignored). Throws an Error naming the first
 * entry that is not a host, `host:port` or CIDR range.
 */
export function parseAddressAllowlist(text: string): AddressAllowlist {
  const entries: AllowEntry[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const entry = parseEntry(item);
    if (!entry) throw new Error(`must be a comma-separated list of hosts, host:port or CIDR ranges ("${item.slice(0, 100)}" is none of them)`);
    entries.push(entry);
  }
  return entries;
}

/**
 * An environment variable holding an allowlist: parsed, or an issue naming the bad entry (a format
 * issue, not a custom one, so the env modules put the variable's name in front of it).
 */
export const addressAllowlistSchema = z.string().transform((text, ctx): AddressAllowlist => {
  try {
    return parseAddressAllowlist(text);
  } catch (error) {
    ctx.addIssue({ code: 'invalid_format', format: 'address_allowlist', input: text, message: (error as Error).message });
    return z.NEVER;
  }
});

const sameBytes = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * Whether the allowlist lets a connection to `destination` reach `verdict.address`: a range that
 * holds the address, the address itself, or the destination's host name (with the port when the
 * entry names one). An IPv4-mapped IPv6 address matches as the IPv4 address it stands for.
 */
export function allowlistPermits(list: AddressAllowlist, destination: Destination, verdict: AddressVerdict): boolean {
  const full = bytesOf(verdict.address.split('%')[0]!);
  const forms = [full, ...(verdict.family === 6 ? [mappedV4(full)].filter((v4): v4 is number[] => v4 !== null) : [])];
  const host = normalHost(destination.host);
  return list.some((entry) => {
    if (entry.type === 'range') return forms.some((bytes) => bytes.length === entry.bytes.length && inRange(bytes, entry.bytes, entry.bits));
    if (entry.port !== null && entry.port !== destination.port) return false;
    if (entry.type === 'address') return forms.some((bytes) => sameBytes(bytes, entry.bytes));
    return entry.host === host;
  });
}
