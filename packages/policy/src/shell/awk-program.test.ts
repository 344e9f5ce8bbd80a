import { describe, expect, it } from 'vitest';
import { awkProgramEffects } from './awk-program';

const effects = (program: string) => awkProgramEffects(program);

describe('awkProgramEffects', () => {
  it('finds literal commands of system(), getline pipes and output pipes', () => {
    expect(effects('BEGIN { system("rm -rf build") }')).toMatchObject({ commands: ['rm -rf build'], hiddenCommand: false });
    expect(effects('BEGIN { while (("ls -1" | getline f) > 0) n++ }')).toMatchObject({ commands: ['ls -1'], hiddenCommand: false });
    expect(effects('{ print $1 | "sort -u" }')).toMatchObject({ pipedCommands: ['sort -u'], hiddenCommand: false });
    expect(effects('BEGIN { awk::system("id") }').commands).toEqual(['id']);
  });

  it('reports commands built at run time, and indirect calls', () => {
    expect(effects('BEGIN { c = "rm -rf " dir; system(c) }').hiddenCommand).toBe(true);
    expect(effects('BEGIN { system("rm -rf " "build") }').hiddenCommand).toBe(true);
    expect(effects('{ print | cmd }').hiddenCommand).toBe(true);
    expect(effects('{ cmd | getline x }').hiddenCommand).toBe(true);
    expect(effects('BEGIN { f = "system"; @f("id") }').hiddenCommand).toBe(true);
  });

  it('tells regular expressions, strings, comments and || from pipes', () => {
    const quiet = { commands: [], pipedCommands: [], writes: [], hiddenCommand: false, hiddenWrite: false, loads: [] };
    expect(effects('/error|warn/ { n++ } END { print n }')).toEqual(quiet);
    expect(effects('{ if ($1 == "a" || $2 ~ /x|y/) print "system(1) | x" }')).toEqual(quiet);
    expect(effects('# system("rm -rf /")\n{ print $1 }')).toEqual(quiet);
    expect(effects('{ print a / b }')).toEqual(quiet);
  });

  it('finds files written by print and printf, but not comparisons', () => {
    expect(effects('{ print $0 > "out.txt" }').writes).toEqual(['out.txt']);
    expect(effects('{ printf("%s\\n", $1) >> "log.txt" }').writes).toEqual(['log.txt']);
    expect(effects('{ print $0 > $1 ".txt" }').hiddenWrite).toBe(true);
    expect(effects('{ if ($1 > 2) print $1 }')).toMatchObject({ writes: [], hiddenWrite: false });
    expect(effects('{ print ($1 > 2) }')).toMatchObject({ writes: [], hiddenWrite: false });
  });

  it('lists @include and @load', () => {
    expect(effects('@include "lib.awk"\n@load "filefuncs"').loads).toEqual(['lib.awk', 'filefuncs']);
  });
});
