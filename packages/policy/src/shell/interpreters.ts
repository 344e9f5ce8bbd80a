import { type OptionSpec, optionValue, parseOptions } from './options';
import { type Frame, type ScanState, destructive, dynamic, runsCode } from './scan-state';
import type { ResolvedWord } from './words';

/**
 * Language interpreters. Every run of one runs code: a script, a module, code loaded first
 * (`node -r`, `ruby -r`), its standard input, or at least its startup files (`.pth` files,
 * `NODE_OPTIONS`). So every run is `runsCode`; code written into the line itself (`-e`, `-c`, a
 * `data:` URL, a heredoc) cannot be classified and is dynamic as well.
 */
interface Interpreter {
  /** For the finding: `node runs JavaScript from ...`. */
  language: string;
  /** Options whose value is program text (`python -c`, `node -e`). */
  inline: string[];
  /** Options whose value is code loaded before the program (a file, a module, or a `data:` URL). */
  preload?: string[];
  /** Options naming a module to run (`python -m`). */
  module?: string[];
  /** Options that only print (a version, help, a syntax check) and run nothing. */
  info?: string[];
  options: OptionSpec;
}

const INTERPRETERS: Record<string, Interpreter> = {
  python: {
    language: 'Python',
    inline: ['-c'],
    module: ['-m'],
    info: ['-V', '--version', '-h', '--help', '--help-all', '--help-env', '--help-xoptions'],
    options: {
      shortValue: 'cWXm',
      shortFlags: 'bBdEhiIOPqsSuvVx',
      longFlags: ['--version', '--help', '--help-all', '--help-env', '--help-xoptions'],
      longValue: ['--check-hash-based-pycs'],
    },
  },
  node: {
    language: 'JavaScript',
    inline: ['-e', '--eval', '-p', '--print'],
    preload: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists'],
    info: ['-v', '--version', '-h', '--help', '-c', '--check'],
    options: {
      shortValue: 'erC',
      shortFlags: 'picvh',
      longValue: [
        '--eval',
        '--print',
        '--require',
        '--import',
        '--loader',
        '--experimental-loader',
        '--conditions',
        '--input-type',
        '--env-file',
        '--env-file-if-exists',
        '--test-reporter',
        '--test-name-pattern',
        '--watch-path',
        '--disable-warning',
        '--title',
      ],
      longFlags: [
        '--check',
        '--interactive',
        '--test',
        '--watch',
        '--enable-source-maps',
        '--no-warnings',
        '--experimental-strip-types',
        '--experimental-transform-types',
        '--no-experimental-strip-types',
        '--experimental-vm-modules',
        '--experimental-test-coverage',
        '--no-deprecation',
        '--trace-warnings',
        '--trace-deprecation',
        '--inspect',
        '--inspect-brk',
        '--expose-gc',
        '--preserve-symlinks',
        '--test-only',
        '--version',
        '--help',
      ],
    },
  },
  // Options whose value may only be attached (`perl -i.bak`, `ruby -0777`) are listed as flags: read as
  // a value they would swallow the next word and could hide `-e CODE` behind it.
  perl: {
    language: 'Perl',
    inline: ['-e', '-E'],
    preload: ['-M', '-m'],
    info: ['-v'],
    options: { shortValue: 'eEIMm', shortFlags: 'aTtnpsSUwWvcfhulix0123456789Cd' },
  },
  ruby: {
    language: 'Ruby',
    inline: ['-e'],
    preload: ['-r'],
    info: ['--version', '--help', '-h'],
    options: { shortValue: 'eIrEC', shortFlags: 'acdhlnpsSvwWyx0123456789F', longFlags: ['--version', '--help'] },
  },
  php: {
    language: 'PHP',
    inline: ['-r', '-R', '-B', '-E'],
    info: ['-v', '-h', '-l', '-m', '-i'],
    options: { shortValue: 'rRBEcdfz', shortFlags: 'ahiHlmnqsv' },
  },
  lua: { language: 'Lua', inline: ['-e'], preload: ['-l'], info: ['-v'], options: { shortValue: 'el', shortFlags: 'iEvW' } },
  Rscript: {
    language: 'R',
    inline: ['-e'],
    info: ['--version'],
    options: { shortValue: 'e', longFlags: ['--vanilla', '--verbose', '--default-packages', '--version'] },
  },
  julia: {
    language: 'Julia',
    inline: ['-e', '-E', '--eval', '--print'],
    info: ['-v', '--version', '-h', '--help'],
    options: { shortValue: 'eEpLJC', shortFlags: 'hviqO', longValue: ['--eval', '--print', '--project'], longFlags: ['--version', '--help'] },
  },
  osascript: { language: 'AppleScript', inline: ['-e'], options: { shortValue: 'els', shortFlags: 'i' } },
  pwsh: { language: 'PowerShell', inline: ['-c', '-Command', '-EncodedCommand', '-ec'], options: { shortValue: 'c', longValue: [] } },
};
const ALIASES: Record<string, string> = {
  nodejs: 'node',
  bun: 'node',
  tsx: 'node',
  'ts-node': 'node',
  deno: 'node',
  pypy: 'python',
  pypy3: 'python',
  perl5: 'perl',
  luajit: 'lua',
  powershell: 'pwsh',
  irb: 'ruby',
};

/** The interpreter `name` runs, or undefined. */
export function interpreterOf(name: string): Interpreter | undefined {
  if (/^python[0-9.]*$/.test(name)) return INTERPRETERS.python;
  return INTERPRETERS[ALIASES[name] ?? name];
}

/** Classifies a run of an interpreter: what it runs, and whether any of it is written in the line. */
export function classifyInterpreter(name: string, interpreter: Interpreter, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  // Code in the line is no different from code in a file the agent wrote a moment before: it
  // runs code (allowed in the sandbox only because the call's effect is decided on its result),
  // and holding `python3 -c 'print(1)'` while allowing `python3 x.py` would protect nothing.
  const inLine = (how: string) => runsCode(state, label, `${name} ${how}: ${interpreter.language} written in the line`);
  // `deno eval CODE`, `bun -e`: a subcommand that takes inline code.
  if (words[1]?.text === 'eval') return inLine('eval runs inline code');
  const parsed = parseOptions(words, 1, interpreter.options);
  if (parsed.options.some((option) => interpreter.inline.includes(option.name))) return inLine('runs inline code');
  const preloads = parsed.options.filter((o) => interpreter.preload?.includes(o.name)).map((o) => o.value);
  if (preloads.some((value) => value !== null && /^data:/i.test(value.text))) return inLine('loads code from a data: URL in the line');
  if (preloads.some((value) => value !== null && !value.static)) {
    dynamic(state, label, `${name} loads code from a path that is not static, which cannot be classified`);
    return runsCode(state, label, `${name} loads ${interpreter.language} from a path named at run time`);
  }
  if (parsed.unknown) {
    dynamic(state, label, `${name} option ${parsed.unknown} is not known`);
    return runsCode(state, label, `${name} runs ${interpreter.language}`);
  }
  // Options after `-m MODULE` are the module's own (`python3 -m http.server --help` runs it).
  const moduleAt = parsed.options.findIndex((o) => interpreter.module?.includes(o.name));
  const own = moduleAt === -1 ? parsed.options : parsed.options.slice(0, moduleAt);
  if (own.some((o) => interpreter.info?.includes(o.name))) return;
  const sources = preloads.map((value) => `${value?.text ?? ''} (loaded first)`);
  const module = interpreter.module ? optionValue(parsed, ...interpreter.module) : null;
  const operand = words[parsed.operandIndex];
  if (module) sources.push(`the module ${module.text}`);
  else if (operand) sources.push(scriptOperand(name, operand, frame, state, label) ? `the script ${operand.text}` : 'a script');
  else sources.push(stdinProgram(name, frame, state, label) ?? 'its standard input');
  const from = sources.filter(Boolean);
  runsCode(
    state,
    label,
    from.length > 0
      ? `${name} runs ${interpreter.language} from ${from.join(' and ')}`
      : `${name} runs ${interpreter.language} only from its startup files (its input is empty)`,
  );
}

/**
 * A script operand: a static path is a file the analysis does not read (true); a script produced
 * by another command, one named at run time, or one read from stdin is judged here (false).
 */
export function scriptOperand(name: string, operand: ResolvedWord, frame: Frame, state: ScanState, label: string, onText?: (text: string) => void): boolean {
  if (operand.static && operand.text !== '-' && operand.text !== '/dev/stdin') return true;
  if (operand.static) stdinProgram(name, frame, state, label, onText);
  else if (operand.source.startsWith('<(')) destructive(state, label, `${name} runs code produced by another command`);
  else dynamic(state, label, `${name} runs a script whose name is not static (${operand.source})`);
  return false;
}

/**
 * A program read from stdin. A pipe is someone else's output (destructive); text (a heredoc, the
 * call's stdin) goes to `onText` when the caller can read it (a shell), else it is dynamic. Returns
 * what runs when that is a file (`< x.py`), '' for empty input, and null when judged here.
 */
export function stdinProgram(name: string, frame: Frame, state: ScanState, label: string, onText?: (text: string) => void): string | null {
  const stdin = frame.stdin;
  if (stdin.kind === 'pipe') {
    destructive(state, label, `pipes data into ${name}, which runs it as code`);
    return null;
  }
  if (stdin.kind === 'text') {
    if (stdin.text !== null && onText) onText(stdin.text);
    // Static code for an interpreter is like code in the line: the caller records that it runs code.
    else if (stdin.text === null) dynamic(state, label, `${name} runs code from a heredoc that is not static`);
    return null;
  }
  if (stdin.kind === 'file') return `its standard input (${stdin.path ?? 'a file whose name is not static'})`;
  return '';
}
