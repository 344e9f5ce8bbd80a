import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '@looplane/shared';
import { judgeAddress } from './address-policy';

/** Where a delivery connects: the URL, and the one address checked for it. */
export interface WebhookTarget {
  url: URL;
  host: string;
  address: string;
  family: 4 | 6;
}

export interface EgressOptions {
  /**
   * LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: deliver to private, loopback and other non-public addresses
   * too (a receiver inside the cluster, development). Off: public addresses only.
   */
  allowPrivate: boolean;
  /** Every address of a host name (default: the system resolver, as any connection would use). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

const systemResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/**
 * Resolves an endpoint URL's host and checks every address it has: one that is not public refuses
 * the URL (unless private addresses are allowed), so a name with a public and a private record
 * cannot be used to reach the private one. The first address is the one to connect to: pass
 * {@link pinnedLookup} of the result to the connection, so nothing resolves the name again
 * between the check and the connect (DNS rebinding). Throws BAD_REQUEST saying why.
 */
export async function resolveWebhookTarget(rawUrl: string, options: EgressOptions): Promise<WebhookTarget> {
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new AppError('BAD_REQUEST', `Cannot resolve ${host} (${code})`);
    }
    if (addresses.length === 0) throw new AppError('BAD_REQUEST', `Cannot resolve ${host} (no addresses)`);
  }
  const verdicts = addresses.map((a) => judgeAddress(a.address));
  const refused = options.allowPrivate ? undefined : verdicts.find((v) => v.refusal !== null);
  if (refused) {
    const subject = refused.address === host ? host : `${host} resolves to ${refused.address}, which`;
    throw new AppError(
      'BAD_REQUEST',
      `${subject} is ${refused.refusal}: webhooks go to public addresses only (LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true allows others)`,
    );
  }
  const chosen = verdicts[0]!;
  return { url, host, address: chosen.address, family: chosen.family };
}

/** A `lookup` for the connection that answers with the checked address only. */
export function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
