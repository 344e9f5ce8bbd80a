// Outbound connections (`@looplane/shared/net`): server-only (node:net, node:dns), so kept out of
// the main entry, which the dashboard's browser bundle loads.
export { judgeAddress, type AddressKind, type AddressVerdict } from './address-policy';
export { addressAllowlistSchema, parseAddressAllowlist, type AddressAllowlist, type Destination } from './address-allowlist';
export { AddressRefusedError, pinnedLookup, resolveOutboundTarget, type OutboundPolicy, type OutboundTarget, type Resolver } from './outbound-target';
export { modelEndpointPolicy } from './endpoint-address-policy';
