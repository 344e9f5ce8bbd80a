import { urlPath } from './url-paths';

/**
 * Host allowlists, for `hosts` conditions and the egress section: `api.github.com` (any port),
 * `api.github.com:443`, `*.github.com` (subdomains only, not github.com itself).
 */

interface HostEntry {
  wildcard: boolean;
  domain: string;
  port: number | null;
}

function parseEntry(entry: string): HostEntry {
  const colon = entry.lastIndexOf(':');
  const hasPort = colon !== -1 && /^\d+$/.test(entry.slice(colon + 1));
  const host = (hasPort ? entry.slice(0, colon) : entry).toLowerCase().replace(/\.$/, '');
  const wildcard = host.startsWith('*.');
  return { wildcard, domain: wildcard ? host.slice(2) : host, port: hasPort ? Number(entry.slice(colon + 1)) : null };
}

/** Whether `host:port` is on the list. Host names compare case-insensitively, without a trailing dot. */
export function hostAllowed(entries: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return entries.some((raw) => {
    const entry = parseEntry(raw);
    if (entry.port !== null && entry.port !== port) return false;
    return entry.wildcard ? name.endsWith(`.${entry.domain}`) : name === entry.domain;
  });
}

/**
 * A URL as the policy judges it: host, port (the scheme's default when absent), method and path
 * (see `urlPath`; null when not known: a CONNECT tunnel shows host and port only).
 */
export type ParsedTarget = { ok: true; host: string; port: number; method: string; path: string | null } | { ok: false; problem: string };

/** Reads an http_request call's `url` and `method`; only http and https are understood. */
export function parseTarget(url: unknown, method: unknown): ParsedTarget {
  if (typeof url !== 'string') return { ok: false, problem: 'the call has no url string' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, problem: `scheme ${parsed.protocol} is not http or https` };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  return { ok: true, host, port, method: typeof method === 'string' && method !== '' ? method.toUpperCase() : 'GET', path: urlPath(parsed) };
}
