import { pinnedLookup, resolveOutboundTarget, type OutboundPolicy, type OutboundTarget, type Resolver } from '@looplane/shared/net';

/** Where a delivery connects: the URL, and the one address checked for it. */
export type WebhookTarget = OutboundTarget;

export interface EgressOptions {
  /**
   * LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: deliver to private, loopback and other non-public addresses
   * too (a receiver inside the cluster, development). Off: public addresses only.
   */
  allowPrivate: boolean;
  /** Every address of a host name (default: the system resolver, as any connection would use). */
  resolve?: Resolver;
}

/** Webhooks go to public addresses only, unless private ones are allowed. */
export function webhookPolicy(options: EgressOptions): OutboundPolicy {
  return {
    refusal: (verdict) =>
      options.allowPrivate || verdict.kind === 'public' ? null : 'webhooks go to public addresses only (LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true allows others)',
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };
}

/**
 * Resolves an endpoint URL's host and checks every address it has ({@link resolveOutboundTarget}):
 * one that is not public refuses the URL (unless private addresses are allowed). Connect to the
 * result through {@link pinnedLookup}. Throws BAD_REQUEST saying why.
 */
export function resolveWebhookTarget(rawUrl: string, options: EgressOptions): Promise<WebhookTarget> {
  return resolveOutboundTarget(rawUrl, webhookPolicy(options));
}

export { pinnedLookup };
