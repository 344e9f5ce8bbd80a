// Test helpers (`@looplane/shared/testing`): the address table every outbound policy is tested against.
export { ADDRESS_CASES, type AddressCase } from './address-cases';
