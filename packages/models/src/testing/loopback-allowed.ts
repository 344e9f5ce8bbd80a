import { modelEndpointPolicy, parseAddressAllowlist, type OutboundPolicy } from '@looplane/shared/net';

/**
 * The model endpoint address policy with 127.0.0.1 allowed (LOOPLANE_ENDPOINTS_ALLOW=127.0.0.1),
 * for tests whose Chat Completions server listens there: loopback is refused by default.
 */
export const LOOPBACK_ALLOWED: OutboundPolicy = modelEndpointPolicy(parseAddressAllowlist('127.0.0.1'));
