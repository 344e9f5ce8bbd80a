import { normalizeAbsolute } from './workspace-paths';

/**
 * Characters whose percent-escapes mean the same as the character itself (RFC 3986 §2.3), plus
 * `/`: a server that decodes `%2F` would otherwise see `/admin/x` where a rule saw one segment
 * `/admin%2Fx`. Decoding it for matching is the conservative reading (a `deny` on `/admin/**`
 * covers it); the request itself is forwarded as sent.
 */
const DECODED = /%(2[dDeEfF]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/**
 * The path of a URL as `paths` conditions match it: the WHATWG-parsed pathname (dot segments,
 * `%2e` spellings included, already resolved; no query, no fragment), with the escapes above
 * decoded and dot segments resolved again. Always starts with `/`.
 */
export function urlPath(url: URL): string {
  const decoded = url.pathname.replace(DECODED, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const normalized = normalizeAbsolute(decoded);
  // A trailing slash is part of the path (`/repos/` is not `/repos`); normalizeAbsolute drops it.
  return decoded.length > 1 && decoded.endsWith('/') && normalized !== '/' ? `${normalized}/` : normalized;
}
