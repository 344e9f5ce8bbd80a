import { describe, expect, it } from 'vitest';
import { defaultPolicy } from './default-policy';
import { policyDocumentSchema } from './policy-schema';
import { egressCredentials, isDriverAllowed, isEgressAllowed, isEndpointAllowed } from './sections';

const doc = (input: Record<string, unknown>) => policyDocumentSchema.parse({ version: 1, ...input });

describe('policy sections the worker and the API enforce', () => {
  it('model endpoints: an omitted section allows every endpoint; a list narrows; [] allows none', () => {
    expect(isEndpointAllowed(doc({}), 'anything')).toBe(true);
    expect(isEndpointAllowed(defaultPolicy, 'gpt')).toBe(true);
    const listed = doc({ models: { allowedEndpoints: ['prod-*', 'faux'] } });
    expect(isEndpointAllowed(listed, 'prod-openai')).toBe(true);
    expect(isEndpointAllowed(listed, 'faux')).toBe(true);
    expect(isEndpointAllowed(listed, 'staging-openai')).toBe(false);
    expect(isEndpointAllowed(doc({ models: { allowedEndpoints: [] } }), 'faux')).toBe(false);
  });

  it('drivers: the minimum and anything stronger; dangerous-none never', () => {
    expect(isDriverAllowed(doc({}), 'bwrap')).toBe(true);
    expect(isDriverAllowed(doc({ sandbox: { minimumDriver: 'podman' } }), 'bwrap')).toBe(false);
    expect(isDriverAllowed(doc({ sandbox: { minimumDriver: 'podman' } }), 'podman')).toBe(true);
    expect(isDriverAllowed(doc({}), 'dangerous-none')).toBe(false);
    // The isolation scale: none < bwrap < podman < gvisor.
    expect(isDriverAllowed(doc({ sandbox: { minimumDriver: 'gvisor' } }), 'podman')).toBe(false);
    expect(isDriverAllowed(doc({ sandbox: { minimumDriver: 'gvisor' } }), 'gvisor')).toBe(true);
    expect(isDriverAllowed(doc({ sandbox: { minimumDriver: 'podman' } }), 'gvisor')).toBe(true);
  });

  it('egress: allowed hosts only, and credentials only for them', () => {
    const d = doc({
      egress: {
        allow: ['api.github.com:443'],
        credentials: [
          { host: 'api.github.com', header: 'Authorization', secretRef: 'GH' },
          { host: 'evil.example', header: 'X', secretRef: 'E' },
        ],
      },
    });
    expect(isEgressAllowed(d, 'api.github.com', 443)).toBe(true);
    expect(isEgressAllowed(d, 'api.github.com', 80)).toBe(false);
    expect(egressCredentials(d, 'api.github.com', 443)).toEqual([{ header: 'Authorization', secretRef: 'GH' }]);
    expect(egressCredentials(d, 'evil.example', 443)).toEqual([]);
  });
});
