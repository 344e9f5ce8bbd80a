import { type OptionSpec, type ParsedOptions, hasOption, optionValue, parseOptions } from './options';
import { type Frame, type ScanState, dynamic } from './scan-state';
import { checkAssignment } from './variables';
import type { ResolvedWord } from './words';

interface WrapperSpec extends OptionSpec {
  /** Operands before the wrapped command (`timeout DURATION`, `chroot NEWROOT`). */
  operands?: number;
  /** `NAME=VALUE` words may precede the command (`env`, `sudo`). */
  assignments?: boolean;
  /** Options after which nothing is run (`command -v`, `sudo -l`). */
  noRun?: string[];
}

/** Programs that run another program given in their argv; the wrapped one is classified in turn. */
const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    shortValue: 'ugpCDhrtTU',
    shortFlags: 'AbEHiKklnPSsVv',
    longValue: ['--user', '--group', '--prompt', '--close-from', '--chdir', '--host', '--role', '--type', '--command-timeout', '--other-user'],
    longFlags: [
      '--askpass',
      '--background',
      '--preserve-env',
      '--set-home',
      '--login',
      '--remove-timestamp',
      '--reset-timestamp',
      '--list',
      '--non-interactive',
      '--preserve-groups',
      '--stdin',
      '--shell',
      '--version',
      '--validate',
    ],
    noRun: ['-l', '-v', '-k', '-K', '-V', '--list', '--validate', '--version', '--remove-timestamp'],
    assignments: true,
  },
  doas: { shortValue: 'uC', shortFlags: 'nsL', noRun: ['-C', '-L'] },
  env: {
    shortValue: 'uCS',
    shortFlags: 'i0v',
    longValue: ['--unset', '--chdir', '--split-string', '--block-signal', '--default-signal', '--ignore-signal'],
    longFlags: ['--ignore-environment', '--null', '--debug', '--list-signal-handling'],
    assignments: true,
  },
  nice: { shortValue: 'n', longValue: ['--adjustment'], numeric: true },
  nohup: {},
  setsid: { shortFlags: 'cfw', longFlags: ['--ctty', '--fork', '--wait'] },
  timeout: {
    shortValue: 'sk',
    shortFlags: 'v',
    longValue: ['--signal', '--kill-after'],
    longFlags: ['--preserve-status', '--foreground', '--verbose'],
    operands: 1,
  },
  time: { shortValue: 'fo', shortFlags: 'apqv', longValue: ['--format', '--output'], longFlags: ['--append', '--portability', '--quiet', '--verbose'] },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  ionice: { shortValue: 'cnp', shortFlags: 't', longValue: ['--class', '--classdata', '--pid'], noRun: ['-p', '--pid'] },
  chroot: { longValue: ['--userspec', '--groups'], longFlags: ['--skip-chdir'], operands: 1 },
  command: { shortFlags: 'pvV', noRun: ['-v', '-V'] },
  builtin: {},
  exec: { shortValue: 'a', shortFlags: 'cl' },
  busybox: {},
  xargs: {
    shortValue: 'ILnPsdEa',
    shortFlags: '0rtpxo',
    longValue: ['--arg-file', '--delimiter', '--eof', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    // `--replace[=R]` takes its value only attached, so it is read as a flag (see xargsReplace).
    longFlags: ['--replace', '--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty', '--show-limits'],
  },
};

/** Whether `name` is a wrapper this module unwraps. */
export function isWrapper(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name) || name === 'watch' || name === 'su' || name === 'runuser';
}

/**
 * Finds the command a wrapper runs and classifies it (with the wrapper appended to `via`). An
 * option the spec does not know makes the line unclassifiable instead of guessing.
 */
export function unwrap(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, via: string[]): void {
  const label = words.map((w) => w.source).join(' ');
  if (name === 'watch') return unwrapWatch(words, frame, state, label, via);
  if (name === 'su' || name === 'runuser') return unwrapSu(name, words, frame, state, label, via);
  const spec = WRAPPERS[name] as WrapperSpec;
  const parsed = parseOptions(words, 1, spec);
  if (parsed.unknown) return dynamic(state, label, `${name} option ${parsed.unknown} is not known, so the command it runs is not known`);
  if (spec.noRun && hasOption(parsed, ...spec.noRun)) return;
  if (name === 'env' && hasOption(parsed, '-S', '--split-string')) return dynamic(state, label, 'env -S splits a string into a command line');
  let index = parsed.operandIndex + (spec.operands ?? 0);
  if (spec.assignments) {
    while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[index] as ResolvedWord).text)) {
      const variable = (words[index] as ResolvedWord).text.split('=', 1)[0] as string;
      checkAssignment(state, variable, label, 'the command');
      index += 1;
    }
  }
  // A word that is not static where an option could be stops the option scan; it then heads the
  // wrapped command, whose name is therefore not static either.
  let inner = words.slice(index);
  if (name === 'xargs') inner = xargsCommand(inner, xargsReplace(parsed));
  if (inner.length === 0) return;
  // `sudo -s CMD` / `sudo -i CMD` hand the words to a shell as one command line.
  if (name === 'sudo' && hasOption(parsed, '-s', '-i', '--shell', '--login')) return runAsLine(inner, frame, state, label, name);
  state.classify(inner, frame, [...via, name]);
}

/** Joins words into a command line and classifies it as a shell would run it. */
function runAsLine(words: ResolvedWord[], frame: Frame, state: ScanState, label: string, name: string): void {
  if (!words.every((w) => w.static)) return dynamic(state, label, `${name} runs a command line that is not static`);
  state.nested(words.map((w) => w.text).join(' '), frame, label);
}

/** `su`/`runuser`: `-c CMD` runs CMD with a shell; `runuser -u USER CMD...` runs argv. */
function unwrapSu(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string, via: string[]): void {
  const parsed = parseOptions(words, 1, {
    shortValue: 'cgGsuw',
    shortFlags: 'flmpP',
    longValue: ['--command', '--session-command', '--group', '--supp-group', '--shell', '--user', '--whitelist-environment'],
    longFlags: ['--fast', '--login', '--preserve-environment', '--pty'],
  });
  if (parsed.unknown) return dynamic(state, label, `${name} option ${parsed.unknown} is not known, so the command it runs is not known`);
  const command = optionValue(parsed, '-c', '--command', '--session-command');
  if (command) return runAsLine([command], frame, state, label, name);
  if (hasOption(parsed, '-u', '--user')) return state.classify(words.slice(parsed.operandIndex), frame, [...via, name]);
}

/** The string xargs replaces with input: `-I R`, `--replace=R`, or `{}` for a bare `--replace`. */
function xargsReplace(parsed: ParsedOptions): string | null {
  const short = optionValue(parsed, '-I');
  if (short) return short.text;
  const long = parsed.options.find((o) => o.name === '--replace');
  return long ? (long.value?.text ?? '{}') : null;
}

/**
 * xargs appends what it reads from stdin to the command, or puts it where `-I` says: those words
 * are not static. With no command it runs `echo`.
 */
function xargsCommand(inner: ResolvedWord[], replace: string | null): ResolvedWord[] {
  if (inner.length === 0) return [];
  const fromStdin: ResolvedWord = { text: '<stdin>', static: false, expands: false, source: '<input from stdin>' };
  if (replace === null) return [...inner, fromStdin];
  return inner.map((word) => (word.text.includes(replace) ? { ...word, static: false } : word));
}

/** `watch` joins its operands and runs them with `sh -c`. */
function unwrapWatch(words: ResolvedWord[], frame: Frame, state: ScanState, label: string, via: string[]): void {
  const parsed = parseOptions(words, 1, {
    shortValue: 'nqd',
    shortFlags: 'bceghtxpd',
    longValue: ['--interval', '--differences'],
    longFlags: ['--beep', '--color', '--errexit', '--chgexit', '--no-title', '--exec', '--precise', '--no-wrap'],
  });
  if (parsed.unknown) return dynamic(state, label, `watch option ${parsed.unknown} is not known, so the command it runs is not known`);
  const operands = words.slice(parsed.operandIndex);
  if (operands.length === 0) return;
  if (hasOption(parsed, '-x', '--exec')) return state.classify(operands, frame, [...via, 'watch']);
  runAsLine(operands, frame, state, label, 'watch');
}
