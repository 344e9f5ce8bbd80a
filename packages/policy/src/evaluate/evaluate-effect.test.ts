import { describe, expect, it } from 'vitest';
import type { FileChange } from '../document/effect-schema';
import { defaultPolicy } from '../document/default-policy';
import { parsePolicyDocument, validatePolicyDocument } from '../document/parse-document';
import { evaluate } from './evaluate';
import { evaluateEffect, hasEffectRules } from './evaluate-effect';

const shell = (command: string) => ({ tool: 'shell', args: { command } });
const change = (path: string, kind: FileChange['kind'], extra: Partial<FileChange> = {}): FileChange => ({
  path,
  kind,
  oldBytes: kind === 'added' ? null : 10,
  newBytes: kind === 'deleted' ? null : kind === 'truncated' ? 0 : 12,
  ...extra,
});

function policy(rules: unknown[]) {
  return parsePolicyDocument({ version: 1, default: 'allow', rules });
}

describe('evaluateEffect with the default policy', () => {
  it('holds a deletion, however the command looked', () => {
    for (const command of ['awk \'BEGIN{system("rm -rf build")}\'', 'python3 x.py', 'node -e "1"']) {
      const decision = evaluateEffect(defaultPolicy, shell(command), { changes: [change('build/out.o', 'deleted')] });
      expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'effect-deletes', approverRole: 'approver', risk: 'high' });
      expect(decision.reason).toContain('build/out.o');
    }
  });

  it('holds a truncation made by a file tool too', () => {
    const decision = evaluateEffect(
      defaultPolicy,
      { tool: 'write_file', args: { path: 'notes.md', content: '' } },
      { changes: [change('notes.md', 'truncated')] },
    );
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'effect-truncates' });
  });

  it('keeps added, modified and moved files', () => {
    const changes = [change('a.txt', 'added'), change('b.txt', 'modified'), change('c.txt', 'moved', { from: 'old/c.txt' })];
    expect(evaluateEffect(defaultPolicy, shell('make build'), { changes })).toMatchObject({ outcome: 'allow', ruleId: 'default' });
    expect(evaluateEffect(defaultPolicy, shell('true'), { changes: [] })).toMatchObject({ outcome: 'allow' });
  });

  it('treats a prior approval as covering require_approval, never deny', () => {
    const approved = evaluateEffect(defaultPolicy, shell('rm -rf build'), { changes: [change('build/x', 'deleted')] }, { approved: true });
    expect(approved).toMatchObject({ outcome: 'allow', ruleId: 'effect-deletes' });
    const strict = policy([{ id: 'no-src-deletes', match: { tool: '*', effect: { deletes: true, paths: ['src/**'] } }, outcome: 'deny' }]);
    expect(evaluateEffect(strict, shell('rm -rf src'), { changes: [change('src/a.ts', 'deleted')] }, { approved: true })).toMatchObject({
      outcome: 'deny',
      ruleId: 'no-src-deletes',
    });
  });

  it('is never consulted before a call runs', () => {
    const decision = evaluate(defaultPolicy, shell('ls'));
    expect(decision.ruleId).not.toMatch(/^effect-/);
  });
});

describe('effect conditions', () => {
  const doc = policy([
    { id: 'tmp-ok', match: { tool: 'shell', effect: { paths: ['tmp/**'], deletes: true } }, outcome: 'allow' },
    { id: 'lockfile', match: { tool: '*', effect: { paths: ['package-lock.json'] } }, outcome: 'require_approval', approverRole: 'admin' },
    {
      id: 'many',
      match: { tool: '*', effect: { maxFilesChanged: 3, paths: ['src/**', '!src/generated/**'] } },
      outcome: 'deny',
      reason: 'too many source files at once',
    },
    { id: 'deletes', match: { tool: '*', effect: { deletes: true } }, outcome: 'require_approval' },
  ]);

  it('narrows the other conditions to the files paths selects', () => {
    expect(evaluateEffect(doc, shell('x'), { changes: [change('tmp/a', 'deleted')] })).toMatchObject({ outcome: 'allow', ruleId: 'tmp-ok' });
    expect(evaluateEffect(doc, shell('x'), { changes: [change('tmp/a', 'deleted'), change('src/a', 'deleted')] })).toMatchObject({
      outcome: 'allow',
      ruleId: 'tmp-ok',
    });
    expect(evaluateEffect(doc, { tool: 'write_file', args: { path: 'tmp/a' } }, { changes: [change('tmp/a', 'deleted')] })).toMatchObject({
      ruleId: 'deletes',
    });
  });

  it('matches a path alone on any change, a move by either of its paths', () => {
    expect(evaluateEffect(doc, shell('npm i'), { changes: [change('package-lock.json', 'modified')] })).toMatchObject({
      outcome: 'require_approval',
      approverRole: 'admin',
      ruleId: 'lockfile',
    });
    expect(evaluateEffect(doc, shell('mv'), { changes: [change('lock.bak', 'moved', { from: 'package-lock.json' })] })).toMatchObject({ ruleId: 'lockfile' });
  });

  it('counts files for maxFilesChanged, exclusions honoured', () => {
    const four = ['src/a', 'src/b', 'src/c', 'src/d'].map((p) => change(p, 'modified'));
    const decision = evaluateEffect(doc, shell('sed'), { changes: four });
    expect(decision).toMatchObject({ outcome: 'deny', ruleId: 'many' });
    expect(decision.reason).toContain('too many source files at once');
    const generated = ['src/a', 'src/b', 'src/c', 'src/generated/d'].map((p) => change(p, 'modified'));
    expect(evaluateEffect(doc, shell('sed'), { changes: generated }).outcome).toBe('allow');
  });

  it('says which tools have effect rules', () => {
    expect(hasEffectRules(doc, 'shell')).toBe(true);
    expect(hasEffectRules(policy([{ id: 'x', match: { tool: 'shell' }, outcome: 'allow' }]), 'shell')).toBe(false);
  });

  it('refuses an empty effect and one on a tool that cannot change files', () => {
    expect(validatePolicyDocument({ version: 1, rules: [{ id: 'e', match: { tool: 'shell', effect: {} }, outcome: 'deny' }] }).ok).toBe(false);
    expect(validatePolicyDocument({ version: 1, rules: [{ id: 'e', match: { tool: 'read_file', effect: { deletes: true } }, outcome: 'deny' }] }).ok).toBe(
      false,
    );
  });
});

describe('lost content under the default policy', () => {
  const write = (path: string) => ({ tool: 'write_file', args: { path, content: 'x' } });
  const lost = (path: string, oldBytes: number, lostBytes: number, kind: FileChange['kind'] = 'modified'): FileChange => ({
    path,
    kind,
    oldBytes,
    newBytes: Math.max(1, oldBytes - lostBytes),
    lostBytes,
  });

  it('holds a call that destroys most of a file of 1 KB or more, wherever in the file', () => {
    const decision = evaluateEffect(defaultPolicy, shell('echo pwned > victim.txt'), { changes: [lost('victim.txt', 8192, 8186)] });
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'effect-loses-most-of-a-file' });
    expect(decision.reason).toContain('victim.txt');
    expect(evaluateEffect(defaultPolicy, write('victim.txt'), { changes: [lost('victim.txt', 8192, 4500)] }).ruleId).toBe('effect-loses-most-of-a-file');
  });

  it('holds more than 16 KB lost over many files, more than 20 changed files, and a type change', () => {
    const spread = Array.from({ length: 10 }, (_, i) => lost(`f${i}.txt`, 4000, 1800));
    expect(evaluateEffect(defaultPolicy, shell('python3 x.py'), { changes: spread }).ruleId).toBe('effect-loses-much-content');
    const many = Array.from({ length: 21 }, (_, i) => lost(`g${i}.txt`, 100, 10));
    expect(evaluateEffect(defaultPolicy, shell('python3 x.py'), { changes: many }).ruleId).toBe('effect-changes-many-files');
    const link = change('victim.txt', 'type_changed', { oldBytes: 8192, newBytes: 9 });
    expect(evaluateEffect(defaultPolicy, shell('python3 x.py'), { changes: [link] }).ruleId).toBe('effect-type-changes');
  });

  it('leaves ordinary edits, appends, new files and small files alone', () => {
    const edits = [lost('src/app.ts', 20_000, 600), lost('small.txt', 200, 200), change('new.txt', 'added', { lostBytes: 0 })];
    const added = Array.from({ length: 200 }, (_, i) => change(`node_modules/p${i}/index.js`, 'added', { lostBytes: 0 }));
    expect(evaluateEffect(defaultPolicy, shell('npm install'), { changes: [...edits, ...added] })).toMatchObject({ outcome: 'allow' });
  });

  it('estimates the loss of effects recorded before the measure existed', () => {
    const old = { path: 'big.txt', kind: 'truncated' as const, oldBytes: 10_000, newBytes: 100 };
    expect(evaluateEffect(defaultPolicy, shell('python3 x.py'), { changes: [old] }).outcome).toBe('require_approval');
  });
});

describe('an approved call is checked against what its approver saw', () => {
  it('keeps losses at the paths the command names', () => {
    const changes = [change('build/out.o', 'deleted'), change('build/keep', 'deleted')];
    expect(evaluateEffect(defaultPolicy, shell('rm -rf build/'), { changes }, { approved: true })).toMatchObject({ outcome: 'allow' });
    expect(evaluateEffect(defaultPolicy, shell('cd build && rm out.o keep'), { changes }, { approved: true }).outcome).toBe('allow');
  });

  it('holds again a loss outside them, such as an rm through a planted link', () => {
    const changes = [change('src/app.ts', 'deleted'), change('README.md', 'deleted')];
    const decision = evaluateEffect(defaultPolicy, shell('rm -rf build/'), { changes }, { approved: true });
    expect(decision).toMatchObject({ outcome: 'require_approval', ruleId: 'effect-deletes' });
    expect(decision.reason).toMatch(/beyond the paths its command names \(src\/app.ts, README.md\)/);
  });

  it('lets a line that names the whole workspace cover everything', () => {
    const changes = [change('src/app.ts', 'deleted')];
    expect(evaluateEffect(defaultPolicy, shell('rm -rf ./*'), { changes }, { approved: true }).outcome).toBe('require_approval');
    expect(evaluateEffect(defaultPolicy, shell('rm -rf /workspace'), { changes }, { approved: true }).outcome).toBe('allow');
  });
});
