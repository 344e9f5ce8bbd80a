import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '../errors';
import type { Destination } from './address-allowlist';
import { judgeAddress, type AddressVerdict } from './address-policy';

/** Every address of a host name. */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

/** What one kind of outbound connection (webhook deliveries, model calls) may reach. */
export interface OutboundPolicy {
  /**
   * Why a connection to `destination` may not go to `verdict.address`, completing
   * "<address> is <what>: …"; null when it may.
   */
  refusal(verdict: AddressVerdict, destination: Destination): string | null;
  /** Every address of a host name (default: the system resolver, as any connection would use). */
  resolve?: Resolver;
}

/** Where a connection goes: the URL, and the one address checked for it. */
export interface OutboundTarget {
  url: URL;
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
}

const REFUSED = Symbol.for('looplane.AddressRefusedError');

/** A destination refused by its policy (as opposed to one that did not resolve): a BAD_REQUEST. */
export class AddressRefusedError extends AppError {
  /** Branded like AppError (which it would otherwise inherit: every AppError would pass). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [REFUSED]?: unknown })[REFUSED] === true;
  }

  constructor(message: string) {
    super('BAD_REQUEST', message);
    Object.defineProperty(this, REFUSED, { value: true });
  }
}

const systemResolve: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Resolves a URL's host and checks every address it has: one the policy refuses refuses the URL,
 * so a name with one allowed and one refused record cannot be used to reach the refused one. The
 * first address is the one to connect to: pass {@link pinnedLookup} of the result to the
 * connection, so nothing resolves the name again between the check and the connect (DNS
 * rebinding). Throws {@link AddressRefusedError} saying why, or BAD_REQUEST when the name does
 * not resolve.
 */
export async function resolveOutboundTarget(rawUrl: string | URL, policy: OutboundPolicy): Promise<OutboundTarget> {
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new AppError('BAD_REQUEST', `Cannot resolve ${host} (${code})`);
    }
    if (addresses.length === 0) throw new AppError('BAD_REQUEST', `Cannot resolve ${host} (no addresses)`);
  }
  const verdicts = addresses.map((a) => judgeAddress(a.address));
  for (const verdict of verdicts) {
    const refusal = policy.refusal(verdict, { host, port });
    if (refusal === null) continue;
    const subject = verdict.address === host ? host : `${host} resolves to ${verdict.address}, which`;
    throw new AddressRefusedError(`${subject} is ${verdict.what ?? 'a public address'}: ${refusal}`);
  }
  const chosen = verdicts[0]!;
  return { url, host, port, address: chosen.address, family: chosen.family };
}

/** A `lookup` for the connection that answers with the checked address only. */
export function pinnedLookup(target: Pick<OutboundTarget, 'address' | 'family'>): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
