import { AppError } from '@looplane/shared';
import { describe, expect, it } from 'vitest';
import { defaultPolicy } from './default-policy';
import { parsePolicyDocument, validatePolicyDocument } from './parse-document';
import { egressCredentials, isDriverAllowed, isEgressAllowed, isEndpointAllowed } from './sections';

const YAML = `version: 1
name: team policy
rules:
  - id: read
    match:
      tool: read_file
      paths: ["**"]
    outcome: allow
  - id: push
    match: { tool: shell, anyCommand: ["git push"] }
    outcome: require_approval
    approverRole: admin
egress:
  allow: [api.github.com:443, "*.npmjs.org"]
  credentials:
    - { host: api.github.com, header: Authorization, secretRef: github-token }
models:
  allowedEndpoints: [gpt-*, faux]
sandbox:
  minimumDriver: podman
  limits: { memoryBytes: 1073741824, pids: 128 }
approvals:
  fourEyes: true
  expiresAfterMinutes: 60
  expiryOutcome: fail
  escalateAfterMinutes: 30
  escalateToRole: admin
`;

describe('parsePolicyDocument', () => {
  it('reads YAML and fills defaults', () => {
    const doc = parsePolicyDocument(YAML);
    expect(doc.default).toBe('deny');
    expect(doc.rules.map((r) => r.id)).toEqual(['read', 'push']);
    expect(doc.approvals).toEqual({ fourEyes: true, expiresAfterMinutes: 60, expiryOutcome: 'fail', escalateAfterMinutes: 30, escalateToRole: 'admin' });
    expect(doc.sandbox.limits).toEqual({ memoryBytes: 1073741824, pids: 128 });
  });

  it('reads JSON text and objects the same way', () => {
    const json = JSON.stringify(parsePolicyDocument(YAML));
    expect(parsePolicyDocument(json)).toEqual(parsePolicyDocument(YAML));
    expect(parsePolicyDocument(JSON.parse(json))).toEqual(parsePolicyDocument(YAML));
  });

  // Zero-trust where it matters to the sandbox; model endpoints default to every endpoint of the
  // team (an admin-curated list already), so a policy written without a models section still runs.
  it('fills every section of a minimal document with zero-trust defaults', () => {
    expect(parsePolicyDocument('version: 1')).toEqual({
      version: 1,
      default: 'deny',
      rules: [],
      egress: { allow: [], credentials: [] },
      models: { allowedEndpoints: ['*'] },
      sandbox: { minimumDriver: 'bwrap', limits: {} },
      approvals: { fourEyes: false, expiresAfterMinutes: 1440, expiryOutcome: 'reject' },
      breakers: expect.objectContaining({ repeatCall: expect.objectContaining({ enabled: true }) }),
      workspace: { sources: [] },
    });
  });

  it('reports YAML syntax errors with line and column', () => {
    const result = validatePolicyDocument('version: 1\nrules:\n  - id: a\n   match: x\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toEqual({ path: '', line: 4, column: 1, message: 'Sequence item without - indicator' });
    expect(validatePolicyDocument('version: 1\nversion: 1\n')).toMatchObject({ ok: false, issues: [{ line: 2, message: expect.stringMatching(/unique/i) }] });
  });

  it('reports schema errors at the line of the offending value', () => {
    const text = 'version: 1\nrules:\n  - id: a\n    match: { tool: shell }\n    outcome: allowed\n';
    expect(validatePolicyDocument(text)).toMatchObject({ ok: false, issues: [{ path: 'rules.0.outcome', line: 5, column: 14 }] });
    expect(() => parsePolicyDocument(text)).toThrow(/rules\.0\.outcome \(line 5, column 14\)/);
  });

  it('refuses unknown keys (a typo must not widen a rule) and points at the key', () => {
    const text = 'version: 1\nrules:\n  - id: a\n    match: { tool: shell, comands: [ls] }\n    outcome: allow\n';
    const result = validatePolicyDocument(text);
    expect(result).toMatchObject({ ok: false, issues: [{ path: 'rules.0.match.comands', line: 4 }] });
  });

  it('refuses duplicate ids, conditions that cannot apply, and inconsistent approvals', () => {
    const messages = (input: unknown) => {
      const result = validatePolicyDocument(input);
      return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
    };
    const rule = (id: string, match: object, extra: object = {}) => ({ id, match, outcome: 'allow', ...extra });
    expect(messages({ version: 1, rules: [rule('a', { tool: 'x' }), rule('a', { tool: 'y' })] })).toEqual([
      'rules.1.id: rule id "a" is already used by rules.0',
    ]);
    expect(messages({ version: 1, rules: [rule('a', { tool: 'shell', paths: ['src/**'] })] })[0]).toMatch(
      /^rules\.0\.match\.paths: "paths" applies only to read_file/,
    );
    expect(messages({ version: 1, rules: [rule('a', { tool: 'http_request', paths: ['/api/**'] })] })).toEqual([]);
    expect(messages({ version: 1, rules: [rule('a', { tool: 'read_file', hosts: ['x.com'] })] })[0]).toMatch(/hosts/);
    expect(messages({ version: 1, rules: [rule('a', { tool: '*', paths: ['**'], hosts: ['x.com'] })] })).toEqual([]);
    expect(messages({ version: 1, rules: [rule('a', { tool: 'x' }, { approverRole: 'admin' })] })).toEqual([
      'rules.0.approverRole: approverRole applies only to outcome require_approval',
    ]);
    expect(messages({ version: 1, approvals: { escalateAfterMinutes: 10 } })).toEqual([
      'approvals.escalateToRole: escalateAfterMinutes and escalateToRole go together',
    ]);
    expect(messages({ version: 1, approvals: { expiresAfterMinutes: 10, escalateAfterMinutes: 20, escalateToRole: 'admin' } })).toEqual([
      'approvals.escalateAfterMinutes: escalation must come before expiry',
    ]);
    expect(messages({ version: 2 })[0]).toMatch(/^version:/);
    expect(messages({ version: 1, egress: { allow: ['https://x.com'] } })[0]).toMatch(/^egress\.allow\.0:/);
  });

  it('throws AppError BAD_REQUEST with the issues as cause', () => {
    try {
      parsePolicyDocument('');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('BAD_REQUEST');
      expect((error as AppError).cause).toEqual([{ path: '', line: 1, column: 1, message: 'the policy is empty' }]);
    }
  });

  it('bounds YAML alias expansion', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(validatePolicyDocument(`version: 1\n${bomb}`)).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/alias/i) }] });
  });
});

describe('document sections', () => {
  const doc = parsePolicyDocument(YAML);

  it('answers egress, credentials, endpoints and drivers', () => {
    expect(isEgressAllowed(doc, 'api.github.com', 443)).toBe(true);
    expect(isEgressAllowed(doc, 'api.github.com', 80)).toBe(false);
    expect(isEgressAllowed(doc, 'registry.npmjs.org', 443)).toBe(true);
    expect(isEgressAllowed(doc, 'npmjs.org', 443)).toBe(false);
    expect(egressCredentials(doc, 'api.github.com', 443)).toEqual([{ header: 'Authorization', secretRef: 'github-token' }]);
    expect(egressCredentials(doc, 'evil.example', 443)).toEqual([]);
    expect(isEndpointAllowed(doc, 'gpt-4o')).toBe(true);
    expect(isEndpointAllowed(doc, 'claude')).toBe(false);
    expect(isDriverAllowed(doc, 'podman')).toBe(true);
    expect(isDriverAllowed(doc, 'bwrap')).toBe(false);
    expect(isDriverAllowed(defaultPolicy, 'bwrap')).toBe(true);
    expect(isDriverAllowed(defaultPolicy, 'dangerous-none')).toBe(false);
  });

  it('the default policy round-trips through its own parser', () => {
    expect(parsePolicyDocument(JSON.stringify(defaultPolicy))).toEqual(defaultPolicy);
  });
});
