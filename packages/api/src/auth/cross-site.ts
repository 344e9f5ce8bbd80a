/**
 * Cross-site request refusal for state changes that ride on the session cookie.
 *
 * A browser attaches the cookie to requests other sites make it send, so a POST that is not
 * authenticated by a Bearer token must prove it comes from our own pages. Browsers say where a
 * request comes from in `Sec-Fetch-Site` (all current ones) and `Origin` (every cross-origin
 * request and every POST). A request that carries neither is not a browser's, so it cannot be a
 * forged one; it is left to the usual authentication. A Bearer token is never ambient (a page on
 * another site cannot make the browser add it), so such requests are exempt.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CrossSiteOptions {
  /**
   * Origins besides the request's own (scheme + Host, or what a trusted proxy forwarded) that
   * may send state changes, e.g. the public URL (`NEXTAUTH_URL`) behind a proxy that rewrites Host.
   */
  allowedOrigins?: readonly string[];
}

/** The request's own origin: the forwarded scheme and host when present, else the Host header. */
function ownOrigin(request: Request): string {
  const url = new URL(request.url);
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(/:$/, '');
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host') || url.host;
  return `${proto}://${host}`.toLowerCase();
}

function normalizedOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? null : url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Why `request` must be refused as a cross-site state change, or null when it may proceed: only
 * unsafe methods without an `Authorization` header are checked. `Sec-Fetch-Site` other than
 * `same-origin` (or `none`, a request the user made directly) is refused, and so is an `Origin`
 * that is neither the request's own nor an allowed one (`null` included).
 */
export function crossSiteRefusal(request: Request, options: CrossSiteOptions = {}): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if ((request.headers.get('authorization') ?? '').trim() !== '') return null;
  const fetchSite = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  const origin = request.headers.get('origin')?.trim();
  const from = origin ? ` (from ${origin.slice(0, 200)})` : '';
  const advice =
    'state changes with the session cookie are accepted only from this server’s own pages; other clients send an API token (Authorization: Bearer)';
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return `Cross-site request refused${from}: ${advice}`;
  }
  if (origin === undefined) return null;
  const wanted = new Set([ownOrigin(request), ...(options.allowedOrigins ?? []).map((o) => normalizedOrigin(o)).filter((o): o is string => o !== null)]);
  const actual = normalizedOrigin(origin);
  if (actual !== null && wanted.has(actual)) return null;
  return `Cross-site request refused${from}: ${advice}`;
}
