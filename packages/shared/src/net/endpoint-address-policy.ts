import { allowlistPermits, type AddressAllowlist } from './address-allowlist';
import type { OutboundPolicy, Resolver } from './outbound-target';

/**
 * Where model endpoints may connect: public and private addresses (self-hosted models live on
 * private networks), and no special-purpose one (loopback, link-local, cloud metadata, …) unless
 * the instance's LOOPLANE_ENDPOINTS_ALLOW lists it. Without that, any team admin could point an
 * endpoint at the server's own services and use `endpoints.test` to probe them.
 */
export function modelEndpointPolicy(allow: AddressAllowlist, resolve?: Resolver): OutboundPolicy {
  return {
    refusal(verdict, destination) {
      if (verdict.kind !== 'special' || allowlistPermits(allow, destination, verdict)) return null;
      const address = verdict.family === 6 ? `[${verdict.address}]` : verdict.address;
      return `model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it (such as ${address}:${destination.port})`;
    },
    ...(resolve ? { resolve } : {}),
  };
}
