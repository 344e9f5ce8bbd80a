import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../document/default-policy';
import { parsePolicyDocument } from '../document/parse-document';
import { redecideCall } from './redecide';

describe('redecideCall', () => {
  const denyAll = parsePolicyDocument({ version: 1 });
  const rm = { tool: 'shell', args: { command: 'rm -rf build' } };

  it('compares a recorded decision with the candidate’s', () => {
    const result = redecideCall({ outcome: 'require_approval', ruleId: 'shell-destructive', approverRole: 'approver' }, denyAll, rm);
    expect(result).toMatchObject({ changed: true, before: { ruleId: 'shell-destructive' }, after: { outcome: 'deny', ruleId: 'default' } });
    expect(result.after).not.toHaveProperty('trace');
  });

  it('counts another approver role as a change, another rule with the same answer not', () => {
    expect(redecideCall({ outcome: 'require_approval', ruleId: 'x', approverRole: 'admin' }, defaultPolicy, rm).changed).toBe(true);
    expect(redecideCall({ outcome: 'require_approval', ruleId: 'x', approverRole: 'approver' }, defaultPolicy, rm).changed).toBe(false);
  });

  it('decides under both documents when given one', () => {
    expect(redecideCall(defaultPolicy, denyAll, rm)).toMatchObject({
      changed: true,
      before: { outcome: 'require_approval', ruleId: 'shell-destructive' },
      after: { outcome: 'deny' },
    });
  });
});
