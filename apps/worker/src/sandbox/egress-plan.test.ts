import { policyDocumentSchema, type PolicyDocumentInput } from '@looplane/policy';
import { describe, expect, it } from 'vitest';
import { planEgress, refusalFor, secretRefsFor, type SecretLookup } from './egress-plan';

const doc = (egress: PolicyDocumentInput['egress']) => policyDocumentSchema.parse({ version: 1, egress });
const none: SecretLookup = new Map();

describe('egress plan: the template narrows the policy, never widens it', () => {
  it('a template without hosts gets the policy list; a host without a port means 443 and 80', () => {
    const plan = planEgress(doc({ allow: ['api.github.com', 'registry.npmjs.org:443', '*.example.com:8443'] }), [], none);
    expect(plan.allow.sort()).toEqual(['*.example.com:8443', 'api.github.com:443', 'api.github.com:80', 'registry.npmjs.org:443']);
  });

  it('keeps only template entries the policy allows, narrowing wildcards on either side', () => {
    const policy = doc({ allow: ['*.github.com', 'pypi.org:443'] });
    const plan = planEgress(policy, ['api.github.com:443', 'example.com', 'pypi.org:80', '*.pypi.org:443', 'pypi.org'], none);
    expect(plan.allow.sort()).toEqual(['api.github.com:443', 'pypi.org:443']);
    expect(planEgress(doc({ allow: ['api.github.com:443'] }), ['*.github.com:443'], none).allow).toEqual(['api.github.com:443']);
    expect(planEgress(doc({ allow: ['*.github.com'] }), ['*.api.github.com:443'], none).allow).toEqual(['*.api.github.com:443']);
    expect(planEgress(doc({ allow: ['*.github.com'] }), ['github.com'], none).allow).toEqual([]);
  });

  it('an empty policy allows nothing, whatever the template lists', () => {
    expect(planEgress(doc({ allow: [] }), ['example.com:443', '127.0.0.1:8080'], none)).toMatchObject({ allow: [], refusals: [] });
  });

  it('reports template entries it cannot read', () => {
    expect(planEgress(doc({ allow: ['a.com'] }), ['http://a.com/x'], none).ignored).toEqual(['http://a.com/x']);
  });
});

describe('egress plan: credentials', () => {
  const policy = doc({
    allow: ['api.github.com:443', '*.corp.example:443', 'uploads.example.org'],
    credentials: [
      { host: 'api.github.com', header: 'Authorization', secretRef: 'GITHUB_TOKEN' },
      { host: 'build.corp.example', header: 'X-Token', secretRef: 'CORP' },
      { host: 'uploads.example.org:80', header: 'X-Key', secretRef: 'UPLOADS' },
    ],
  });

  it('names only the secrets the narrowed list needs', () => {
    expect(secretRefsFor(policy, []).sort()).toEqual(['CORP', 'GITHUB_TOKEN', 'UPLOADS']);
    expect(secretRefsFor(policy, ['api.github.com:443'])).toEqual(['GITHUB_TOKEN']);
  });

  it('injects resolved secrets for the exact hosts they cover (an exact credential under a wildcard entry too)', () => {
    const secrets: SecretLookup = new Map([
      ['GITHUB_TOKEN', { value: 'Bearer gh-1' }],
      ['CORP', { value: 'c-2' }],
      ['UPLOADS', { value: 'u-3' }],
    ]);
    const plan = planEgress(policy, [], secrets);
    expect(plan.refusals).toEqual([]);
    expect(plan.allow.sort()).toEqual(['*.corp.example:443', 'api.github.com:443', 'uploads.example.org:443', 'uploads.example.org:80']);
    expect(plan.credentials).toEqual(
      expect.arrayContaining([
        { host: 'api.github.com', port: 443, headers: { Authorization: 'Bearer gh-1' }, insecure: false },
        { host: 'build.corp.example', port: 443, headers: { 'X-Token': 'c-2' }, insecure: false },
        { host: 'uploads.example.org', port: 80, headers: { 'X-Key': 'u-3' }, insecure: false },
      ]),
    );
    expect(plan.credentials).toHaveLength(3);
  });

  it('takes an entry off the list when its secret is missing, and says why for the denied host', () => {
    const secrets: SecretLookup = new Map([
      ['CORP', { problem: 'cannot be opened: this worker has no LOOPLANE_ENCRYPTION_KEY' }],
      ['UPLOADS', { value: 'u' }],
    ]);
    const plan = planEgress(policy, [], secrets);
    expect(plan.allow.sort()).toEqual(['uploads.example.org:443', 'uploads.example.org:80']);
    expect(refusalFor(plan, 'api.github.com', 443)).toBe(
      `the team secret "GITHUB_TOKEN" that the policy's egress credential for api.github.com (Authorization) needs does not exist`,
    );
    // A wildcard entry cannot be split: every host under it is refused rather than one reached without its credential.
    expect(refusalFor(plan, 'other.corp.example', 443)).toMatch(/"CORP".*cannot be opened/);
    expect(refusalFor(plan, 'api.github.com', 80)).toBeNull();
    expect(plan.credentials.every((c) => !JSON.stringify(c).includes('undefined'))).toBe(true);
  });

  it('refuses a wildcard credential under a wildcard entry (the proxy injects per exact host)', () => {
    const plan = planEgress(
      doc({ allow: ['*.corp.example:443'], credentials: [{ host: '*.corp.example', header: 'X-Token', secretRef: 'CORP' }] }),
      [],
      new Map([['CORP', { value: 'c' }]]),
    );
    expect(plan.allow).toEqual([]);
    expect(refusalFor(plan, 'a.corp.example', 443)).toMatch(/allow those hosts by name/);
    const named = planEgress(
      doc({ allow: ['*.corp.example:443'], credentials: [{ host: '*.corp.example', header: 'X-Token', secretRef: 'CORP' }] }),
      ['a.corp.example:443'],
      new Map([['CORP', { value: 'c' }]]),
    );
    expect(named).toMatchObject({
      allow: ['a.corp.example:443'],
      credentials: [{ host: 'a.corp.example', port: 443, headers: { 'X-Token': 'c' } }],
      refusals: [],
    });
  });

  it('marks a credential the policy sends over plain HTTP too (insecure), apart from TLS-only ones for the same host', () => {
    const plan = planEgress(
      doc({
        allow: ['legacy.example.org:80'],
        credentials: [
          { host: 'legacy.example.org', header: 'Authorization', secretRef: 'TLS_ONLY' },
          { host: 'legacy.example.org:80', header: 'X-Key', secretRef: 'PLAIN', insecure: true },
        ],
      }),
      [],
      new Map([
        ['TLS_ONLY', { value: 't' }],
        ['PLAIN', { value: 'p' }],
      ]),
    );
    expect(plan.credentials).toEqual([
      { host: 'legacy.example.org', port: 80, headers: { Authorization: 't' }, insecure: false },
      { host: 'legacy.example.org', port: 80, headers: { 'X-Key': 'p' }, insecure: true },
    ]);
  });
});
