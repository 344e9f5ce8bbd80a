import { awkProgramEffects } from './awk-program';
import { type OptionSpec, parseOptions } from './options';
import { type Frame, type ScanState, dynamic, runsCode } from './scan-state';
import { literalWord, type ResolvedWord } from './words';
import { checkWritePath } from './write-targets';

/**
 * awk, gawk and mawk options (POSIX, GNU and mawk's `-W`). Options that take a value only when
 * attached (`-d[file]`, `-o[file]`, `-p[file]`, `-L[value]`) are flags here: read as taking the
 * next word they would swallow the program text.
 */
const AWK_OPTIONS: OptionSpec = {
  shortValue: 'FvfEeilW',
  shortFlags: 'bcCdDghLMnNOopPrsStVY',
  longValue: ['--field-separator', '--assign', '--file', '--exec', '--source', '--include', '--load'],
  longFlags: [
    '--characters-as-bytes',
    '--traditional',
    '--copyright',
    '--dump-variables',
    '--debug',
    '--gen-pot',
    '--help',
    '--lint',
    '--bignum',
    '--use-lc-numeric',
    '--non-decimal-data',
    '--optimize',
    '--no-optimize',
    '--pretty-print',
    '--profile',
    '--posix',
    '--re-interval',
    '--sandbox',
    '--lint-old',
    '--version',
    '--csv',
  ],
};
const PROGRAM_FILES = ['-f', '--file', '-E', '--exec'];
const PROGRAM_TEXT = ['-e', '--source'];
const LOADS = ['-i', '--include', '-l', '--load'];

/**
 * awk runs a program, and any program can run commands: `system()`, pipes to and from commands.
 * So every awk is `runsCode`. The program text is found past any options (`-v x=1`, `-F :`, `--`)
 * and read: a literal command (`system("rm -rf build")`) is classified as a shell line, a command
 * or output file built at run time makes the line dynamic, `-f prog.awk` is code not analysed.
 */
export function checkAwk(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  const parsed = parseOptions(words, 1, AWK_OPTIONS);
  if (parsed.unknown) {
    dynamic(state, label, `${name} option ${parsed.unknown} is not known, so its program is not known`);
    return runsCode(state, label, `${name} runs a program`);
  }
  const valued = (names: string[]) => parsed.options.filter((o) => names.includes(o.name)).map((o) => o.value);
  const files = valued(PROGRAM_FILES);
  const loads = valued(LOADS);
  const texts = valued(PROGRAM_TEXT);
  if (files.length === 0 && texts.length === 0) {
    const program = words[parsed.operandIndex];
    if (program) texts.push(program);
  }
  for (const file of [...files, ...loads]) runsCode(state, label, `${name} runs the program file ${file?.text ?? ''}, which is not analysed`);
  if (texts.some((text) => text === null || !text.static)) return dynamic(state, label, `the ${name} program is not static`);
  const programs = texts.map((text) => awkProgramEffects((text as ResolvedWord).text));
  if (programs.length > 0) runsCode(state, label, `${name} runs a program, and awk programs can run commands (system(), pipes)`);
  for (const effects of programs) {
    for (const command of effects.commands) state.nested(command, frame, label);
    for (const command of effects.pipedCommands) state.nested(command, { ...frame, stdin: { kind: 'pipe' } }, label);
    for (const file of effects.writes) checkWritePath(state, literalWord(file), label);
    for (const file of effects.loads) runsCode(state, label, `${name} loads ${file}, which is not analysed`);
    if (effects.hiddenCommand) dynamic(state, label, `the ${name} program runs a command built at run time`);
    if (effects.hiddenWrite) dynamic(state, label, `the ${name} program writes a file whose name is built at run time`);
  }
}
