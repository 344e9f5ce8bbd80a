import { describe, expect, it } from 'vitest';
import { sedScriptEffects } from './sed-script';

describe('sedScriptEffects', () => {
  it('finds the e command after any address, and the e flag of s', () => {
    for (const script of [
      'e id',
      '1e id',
      '$e id',
      '/x/e id',
      '/x/Ie id',
      '/x/M e id',
      '\\,x,e id',
      '1,/y/!e id',
      '0~2 e id',
      '$!{\ne id\n}',
      's/a/b/e',
      's|a|b|ge',
      'p;e id',
    ]) {
      expect(sedScriptEffects(script), script).toMatchObject({ executes: true, unreadable: false });
    }
  });

  it('does not mistake text, regular expressions or labels for commands', () => {
    for (const script of ['s/e/E/g', '/e/p', 'y/abe/xyz/', ':e;N;$!be', 'a\\\ne id', 'i e is a letter', '# e id', 's/[/]e/x/', 'ba;:a']) {
      expect(sedScriptEffects(script), script).toMatchObject({ executes: false, unreadable: false });
    }
  });

  it('lists written files and whole-file deletion', () => {
    expect(sedScriptEffects('w out.txt').writes).toEqual(['out.txt']);
    expect(sedScriptEffects('s/a/b/gw /etc/x').writes).toEqual(['/etc/x']);
    expect(sedScriptEffects('d').deletesAll).toBe(true);
    expect(sedScriptEffects('1,$d').deletesAll).toBe(true);
    expect(sedScriptEffects('1d').deletesAll).toBe(false);
    expect(sedScriptEffects('/x/d').deletesAll).toBe(false);
  });

  it('calls a script it cannot follow unreadable', () => {
    for (const script of ['k', 's/a/b', 's/a/b/X', '/x', '1,']) expect(sedScriptEffects(script).unreadable, script).toBe(true);
  });
});
