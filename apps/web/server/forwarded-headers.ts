import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { plainAddress, type TrustedProxies } from '../src/lib/trusted-proxies';

/** Headers through which a client or a proxy can claim who the client is or how it connected. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip', 'forwarded'];

/** What the request's connection says about the client, once the claims were weighed. */
export interface ForwardedFacts {
  /** The client's address: the socket peer, or the one a trusted proxy forwarded for. */
  client: string | null;
  /** Whether the client reached us over https (told by a trusted proxy). */
  https: boolean;
}

function values(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/**
 * Rewrites a request's forwarding headers in place, before Next sees them, so that whatever runs
 * behind (Next itself, next-auth, the route handlers, the audit log's `ip`) can believe them.
 *
 * Next fills `x-forwarded-for` with the socket peer only when the header is absent, so a client
 * could name any address it liked. Here every forwarding header a client sent is dropped; only
 * a peer in `LOOPLANE_TRUSTED_PROXIES` may say who the client is (`X-Forwarded-For`, walked from
 * the nearest hop outwards past further trusted proxies), and how it connected (`-Proto`,
 * `-Host`, `-Port`). Afterwards `x-forwarded-for` holds exactly one address: the client's.
 */
export function rewriteForwardedHeaders(headers: IncomingHttpHeaders, socketPeer: string | undefined, proxies: TrustedProxies): ForwardedFacts {
  const peer = socketPeer ? plainAddress(socketPeer) : null;
  const fromProxy = peer !== null && proxies.trusts(peer);
  const claimedChain = fromProxy
    ? values(headers['x-forwarded-for'])
        .map(plainAddress)
        .filter((address) => isIP(address) !== 0)
    : [];
  const proto = fromProxy ? values(headers['x-forwarded-proto'])[0]?.toLowerCase() : undefined;
  const host = fromProxy ? values(headers['x-forwarded-host'])[0] : undefined;
  const port = fromProxy ? values(headers['x-forwarded-port'])[0] : undefined;
  for (const name of FORWARDING_HEADERS) delete headers[name];

  const chain = peer ? [...claimedChain, peer] : claimedChain;
  let client: string | null = null;
  for (let i = chain.length - 1; i >= 0; i--) {
    client = chain[i]!;
    if (!proxies.trusts(client)) break;
  }
  if (client) headers['x-forwarded-for'] = client;
  if (proto === 'https' || proto === 'http') headers['x-forwarded-proto'] = proto;
  if (host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) headers['x-forwarded-host'] = host;
  if (port && /^\d{1,5}$/.test(port)) headers['x-forwarded-port'] = port;
  return { client, https: proto === 'https' };
}
