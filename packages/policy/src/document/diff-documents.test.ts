import { describe, expect, it } from 'vitest';
import { redecide } from '../evaluate/redecide';
import { defaultPolicy } from './default-policy';
import { diffDocuments } from './diff-documents';
import { parsePolicyDocument } from './parse-document';
import type { PolicyDocumentInput } from './policy-schema';

const v1: PolicyDocumentInput = {
  version: 1,
  rules: [
    { id: 'reads', match: { tool: 'read_file', paths: ['**'] }, outcome: 'allow' },
    { id: 'safe', match: { tool: 'shell', commands: ['ls', 'cat'] }, outcome: 'allow' },
    { id: 'shell', match: { tool: 'shell' }, outcome: 'require_approval' },
  ],
  egress: { allow: ['api.github.com'] },
};

describe('diffDocuments', () => {
  it('finds nothing between equal documents', () => {
    expect(diffDocuments(parsePolicyDocument(v1), parsePolicyDocument(structuredClone(v1))).unchanged).toBe(true);
  });

  it('reports added, removed, changed and reordered rules, and section changes', () => {
    const v2: PolicyDocumentInput = {
      version: 1,
      default: 'require_approval',
      rules: [
        { id: 'shell', match: { tool: 'shell' }, outcome: 'deny', reason: 'no shell' },
        { id: 'safe', match: { tool: 'shell', commands: ['ls', 'cat', 'grep'] }, outcome: 'allow' },
        { id: 'writes', match: { tool: 'write_file', paths: ['src/**'] }, outcome: 'allow' },
      ],
      egress: { allow: ['api.github.com', 'registry.npmjs.org'] },
      approvals: { fourEyes: true },
    };
    const diff = diffDocuments(parsePolicyDocument(v1), parsePolicyDocument(v2));
    expect(diff.unchanged).toBe(false);
    expect(diff.rules.added.map((a) => [a.index, a.rule.id])).toEqual([[2, 'writes']]);
    expect(diff.rules.removed.map((r) => [r.index, r.rule.id])).toEqual([[0, 'reads']]);
    expect(diff.rules.changed.map((c) => [c.id, c.changes.map((x) => x.path)])).toEqual([
      ['shell', ['outcome', 'reason']],
      ['safe', ['match.commands']],
    ]);
    expect(diff.rules).toMatchObject({ reordered: true, orderBefore: ['safe', 'shell'], orderAfter: ['shell', 'safe'] });
    expect(diff.sections).toEqual([
      { path: 'approvals.fourEyes', before: false, after: true },
      { path: 'default', before: 'deny', after: 'require_approval' },
      { path: 'egress.allow', before: ['api.github.com'], after: ['api.github.com', 'registry.npmjs.org'] },
    ]);
  });
});

describe('redecide', () => {
  const recent = [
    { id: 'c1', tool: 'shell', args: { command: 'ls -la' } },
    { id: 'c2', tool: 'shell', args: { command: 'grep -r foo .' } },
    { id: 'c3', tool: 'shell', args: { command: 'rm -rf build' } },
    { id: 'c4', tool: 'read_file', args: { path: 'README.md' } },
    { id: 'c5', tool: 'http_request', args: { url: 'https://registry.npmjs.org/zod', method: 'GET' } },
  ];

  it('lists exactly the calls whose decision changes, keeping the caller’s call objects', () => {
    const before = parsePolicyDocument(v1);
    const after = parsePolicyDocument({
      ...v1,
      rules: [
        { id: 'safe', match: { tool: 'shell', commands: ['ls', 'cat', 'grep'] }, outcome: 'allow' },
        { id: 'reads', match: { tool: 'read_file', paths: ['**'] }, outcome: 'allow' },
        { id: 'shell', match: { tool: 'shell' }, outcome: 'require_approval', approverRole: 'admin' },
      ],
    });
    const changed = redecide(before, after, recent);
    expect(changed.map((c) => [c.call.id, c.before.outcome, c.after.outcome, c.after.approverRole ?? null])).toEqual([
      ['c2', 'require_approval', 'allow', null],
      ['c3', 'require_approval', 'require_approval', 'admin'],
    ]);
    expect(changed[0]?.call).toBe(recent[1]);
    expect(changed[0]?.after).not.toHaveProperty('trace');
  });

  it('is empty for the same document, and sees egress changes', () => {
    expect(redecide(defaultPolicy, defaultPolicy, recent)).toEqual([]);
    const withNpm = parsePolicyDocument({ ...defaultPolicy, egress: { allow: ['registry.npmjs.org:443'] } });
    expect(redecide(defaultPolicy, withNpm, recent).map((c) => [c.call.id, c.before.outcome, c.after.outcome])).toEqual([['c5', 'deny', 'allow']]);
  });

  it('uses a call’s own context when it has one', () => {
    const calls = [{ tool: 'write_file', args: { path: '/srv/ws/src/a.ts' }, context: { workspaceRoot: '/srv/ws' } }];
    const denyAll = parsePolicyDocument({ version: 1 });
    expect(redecide(denyAll, defaultPolicy, calls)).toHaveLength(1);
    expect(redecide(denyAll, defaultPolicy, [{ ...calls[0]!, context: undefined }])).toHaveLength(0);
  });
});
