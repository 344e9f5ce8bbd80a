import { beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicy } from '@looplane/policy';
import { appendEvents } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed({ agent: true });
const counts = async () => ({ versions: await tb.db.policyVersion.count(), audit: await tb.db.auditLog.count({ where: { teamId: tb.fx.teamId } }) });

/** A policy that lets `rm` run unasked (and nothing else changed from the default). */
const LENIENT_YAML = `version: 1
name: lenient
default: deny
rules:
  - id: let-rm
    match: { tool: shell, anyCommand: [rm], destructive: true }
    outcome: allow
  - id: shell-safe
    match: { tool: shell, commands: [ls, cat] }
    outcome: allow
`;

beforeAll(async () => {
  // A real run whose model asked for two tool calls: they are the "recent real tool calls".
  const { runId } = await (await tb.as('operator')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'clean up' });
  const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
  await appendEvents(tb.db, runId, run.rootSessionId!, [
    { type: 'tool.requested', payload: { callId: 'c1', requestId: 'r1', name: 'shell', args: { command: 'rm -rf build' } } },
    { type: 'tool.requested', payload: { callId: 'c2', requestId: 'r1', name: 'shell', args: { command: 'ls -la' } } },
  ]);
});

describe('policies', () => {
  it('a new team runs on the built-in default policy (version 0)', async () => {
    const api = await tb.as('viewer');
    expect(await api.policies.get({ teamId: tb.fx.teamId })).toMatchObject({ version: 0, builtin: true, active: true, document: defaultPolicy });
    expect(await api.policies.versions({ teamId: tb.fx.teamId })).toEqual([expect.objectContaining({ version: 0, active: true, builtin: true })]);
  });

  it('the simulator decides rm -rf / under the default policy, with the rule and the trace', async () => {
    const result = await (await tb.as('viewer')).policies.simulate({ teamId: tb.fx.teamId, tool: 'shell', args: { command: 'rm -rf /' } });
    expect(result).toMatchObject({ draft: false, outcome: 'require_approval', ruleId: 'shell-destructive', approverRole: 'approver', risk: 'high' });
    expect(result.trace.at(-1)).toMatchObject({ ruleId: 'shell-destructive', matched: true });
    const draft = await (await tb.as('viewer')).policies.simulate({
      teamId: tb.fx.teamId,
      tool: 'shell',
      args: { command: 'rm -rf /' },
      document: LENIENT_YAML,
    });
    expect(draft).toMatchObject({ draft: true, outcome: 'allow', ruleId: 'let-rm' });
  });

  it('the simulator names the least isolation a call would run with: its rule’s minimumDriver, else the document’s minimum', async () => {
    const viewer = await tb.as('viewer');
    const document = [
      'version: 1',
      'default: allow',
      'rules:',
      '  - id: code-in-gvisor',
      '    match: { tool: shell, runsCode: true }',
      '    outcome: allow',
      '    minimumDriver: gvisor',
    ].join('\n');
    const code = await viewer.policies.simulate({ teamId: tb.fx.teamId, tool: 'shell', args: { command: 'python3 -c "print(1)"' }, document });
    expect(code).toMatchObject({ outcome: 'allow', ruleId: 'code-in-gvisor', sandbox: 'gvisor' });
    const plain = await viewer.policies.simulate({ teamId: tb.fx.teamId, tool: 'shell', args: { command: 'ls' }, document });
    expect(plain).toMatchObject({ outcome: 'allow', ruleId: 'default', sandbox: 'bwrap' });
  });

  it('the simulator names microvm for code when a rule asks for it, and bwrap for the rest', async () => {
    const viewer = await tb.as('viewer');
    const document = [
      'version: 1',
      'default: allow',
      'rules:',
      '  - id: code-in-vm',
      '    match: { tool: shell, runsCode: true }',
      '    outcome: allow',
      '    minimumDriver: microvm',
    ].join('\n');
    const code = await viewer.policies.simulate({ teamId: tb.fx.teamId, tool: 'shell', args: { command: 'python3 -c "print(1)"' }, document });
    expect(code).toMatchObject({ outcome: 'allow', ruleId: 'code-in-vm', sandbox: 'microvm' });
    const plain = await viewer.policies.simulate({ teamId: tb.fx.teamId, tool: 'shell', args: { command: 'ls' }, document });
    expect(plain).toMatchObject({ outcome: 'allow', ruleId: 'default', sandbox: 'bwrap' });
  });

  it('an invalid document is refused with its path and line, and nothing is saved', async () => {
    const api = await tb.as('admin');
    const before = await counts();
    const bad = LENIENT_YAML.replace('outcome: allow', 'outcome: maybe');
    // The zod issue carries the path; HTTP clients get it as one line (`document.rules.0.outcome: … (line 7, …)`).
    const error = await api.policies.save({ teamId: tb.fx.teamId, document: bad }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      cause: { issues: [expect.objectContaining({ path: ['document', 'rules', '0', 'outcome'], message: expect.stringMatching(/\(line 7, column \d+\)$/) })] },
    });
    await expect(api.policies.save({ teamId: tb.fx.teamId, document: '{ "version": 1, "rules": [' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      api.policies.save({
        teamId: tb.fx.teamId,
        document: { version: 1, name: 'x', default: 'deny', rules: [{ id: 'r', match: { tool: 'shell', colour: 'red' }, outcome: 'allow' }] },
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      cause: { issues: [expect.objectContaining({ path: ['document', 'rules', '0', 'match', 'colour'] })] },
    });
    expect(await counts()).toEqual(before);
    expect(await api.policies.validate({ teamId: tb.fx.teamId, document: bad })).toMatchObject({
      ok: false,
      issues: [expect.objectContaining({ path: 'rules.0.outcome', line: 7 })],
    });
    expect(await api.policies.validate({ teamId: tb.fx.teamId, document: LENIENT_YAML })).toEqual({ ok: true, issues: [] });
  });

  it('saving makes a new active version, audits it, and reports the recent calls now decided differently', async () => {
    const api = await tb.as('admin');
    const saved = await api.policies.save({ teamId: tb.fx.teamId, document: LENIENT_YAML, comment: 'let agents clean up' });
    expect(saved).toMatchObject({ version: 1, previousVersion: 0, checkedCalls: 2 });
    // rm -rf build needed approval under the default and is now allowed; ls was allowed and still is.
    expect(saved.redecided).toEqual([
      expect.objectContaining({
        callId: 'c1',
        tool: 'shell',
        args: { command: 'rm -rf build' },
        before: expect.objectContaining({ outcome: 'require_approval', ruleId: 'shell-destructive' }),
        after: expect.objectContaining({ outcome: 'allow', ruleId: 'let-rm' }),
      }),
    ]);
    expect(await api.policies.get({ teamId: tb.fx.teamId })).toMatchObject({
      version: 1,
      builtin: false,
      comment: 'let agents clean up',
      createdBy: tb.fx.members.admin.email,
      document: { name: 'lenient' },
    });
    const audit = await tb.db.auditLog.findFirstOrThrow({ where: { teamId: tb.fx.teamId, action: 'policy.saved' } });
    expect(audit).toMatchObject({ actorId: tb.fx.members.admin.id, data: expect.objectContaining({ version: 1, previousVersion: 0, rulesAdded: ['let-rm'] }) });

    // Back to the default as JSON: a third version, every earlier one kept.
    const again = await api.policies.save({ teamId: tb.fx.teamId, document: JSON.stringify(defaultPolicy) });
    expect(again).toMatchObject({ version: 2, previousVersion: 1 });
    expect(again.redecided.map((r) => r.callId)).toEqual(['c1']);
    const versions = await api.policies.versions({ teamId: tb.fx.teamId });
    expect(versions.map((v) => [v.version, v.active])).toEqual([
      [2, true],
      [1, false],
      [0, false],
    ]);
  });

  it('diffs two versions, and the database refuses to change a saved one', async () => {
    const api = await tb.as('viewer');
    const { diff } = await api.policies.diff({ teamId: tb.fx.teamId, from: 0, to: 1 });
    expect(diff.unchanged).toBe(false);
    expect(diff.rules.added.map((r) => r.rule.id)).toEqual(['let-rm']);
    expect((await api.policies.diff({ teamId: tb.fx.teamId, from: 0, to: 2 })).diff.unchanged).toBe(true);
    await expect(api.policies.diff({ teamId: tb.fx.teamId, from: 0, to: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(tb.db.$executeRawUnsafe(`UPDATE "PolicyVersion" SET comment = 'rewritten'`)).rejects.toThrow(/immutable/i);
  });

  it('only admins save', async () => {
    await expect((await tb.as('approver')).policies.save({ teamId: tb.fx.teamId, document: LENIENT_YAML })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
