import { type OptionSpec, hasOption, optionValue, parseOptions } from './options';
import { type Frame, type ScanState, destructive, dynamic, isDangerousVariable } from './scan-state';
import type { ResolvedWord } from './words';

/** Shells: `-c STRING` is parsed in turn; with no script operand they run what arrives on stdin. */
const SHELLS = new Set(['sh', 'bash', 'rbash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh']);
const SHELL_OPTIONS: OptionSpec = {
  shortValue: 'oO',
  shortFlags: 'abcefhiklmnprstuvxBCEHPT',
  longValue: ['--rcfile', '--init-file'],
  longFlags: ['--login', '--norc', '--noprofile', '--posix', '--noediting', '--restricted', '--verbose', '--debugger', '--dump-strings', '--pretty-print'],
};

interface Interpreter {
  /** Options whose value is program text (`python -c`, `node -e`). */
  inline: string[];
  options: OptionSpec;
}

/** Interpreters: inline program text cannot be classified; a program piped in runs unseen. */
const INTERPRETERS: Record<string, Interpreter> = {
  python: { inline: ['-c'], options: { shortValue: 'cWXm', shortFlags: 'bBdEhiIOPqsSuvVx' } },
  node: {
    inline: ['-e', '--eval', '-p', '--print'],
    options: {
      shortValue: 'erC',
      shortFlags: 'picv',
      longValue: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--conditions', '--input-type', '--env-file'],
      longFlags: ['--check', '--interactive', '--test', '--watch', '--enable-source-maps', '--no-warnings', '--experimental-strip-types'],
    },
  },
  // Options whose value may only be attached (`perl -i.bak`, `ruby -0777`) are listed as flags: read as
  // a value they would swallow the next word and could hide `-e CODE` behind it.
  perl: { inline: ['-e', '-E'], options: { shortValue: 'eEIMm', shortFlags: 'aTtnpsSUwWvcfhulix0123456789Cd' } },
  ruby: { inline: ['-e'], options: { shortValue: 'eIrEC', shortFlags: 'acdhlnpsSvwWyx0123456789F' } },
  php: { inline: ['-r', '-R', '-B', '-E'], options: { shortValue: 'rRBEcdfz', shortFlags: 'ahiHlnqsv' } },
  lua: { inline: ['-e'], options: { shortValue: 'el', shortFlags: 'iEvW' } },
  Rscript: { inline: ['-e'], options: { shortValue: 'e', longFlags: ['--vanilla', '--verbose', '--default-packages'] } },
  julia: { inline: ['-e', '-E', '--eval', '--print'], options: { shortValue: 'eEpLJC', shortFlags: 'hviqO', longValue: ['--eval', '--print', '--project'] } },
  osascript: { inline: ['-e'], options: { shortValue: 'els', shortFlags: 'i' } },
  pwsh: { inline: ['-c', '-Command', '-EncodedCommand', '-ec'], options: { shortValue: 'c', longValue: [] } },
};
const INTERPRETER_ALIASES: Record<string, string> = {
  nodejs: 'node', bun: 'node', tsx: 'node', 'ts-node': 'node', deno: 'node', pypy: 'python', pypy3: 'python',
  perl5: 'perl', luajit: 'lua', powershell: 'pwsh', irb: 'ruby',
};

function interpreterOf(name: string): Interpreter | undefined {
  if (/^python[0-9.]*$/.test(name)) return INTERPRETERS.python;
  return INTERPRETERS[INTERPRETER_ALIASES[name] ?? name];
}

/**
 * Handles programs and builtins that run code given to them as data: shells, interpreters,
 * `eval`, `source`, `trap`, `alias`. Returns false when `name` is none of them.
 */
export function classifyCodeRunner(name: string, words: ResolvedWord[], frame: Frame, state: ScanState): boolean {
  const label = words.map((w) => w.source).join(' ');
  if (SHELLS.has(name)) {
    shell(name, words, frame, state, label);
    return true;
  }
  const interpreter = interpreterOf(name);
  if (interpreter) {
    interpreted(name, interpreter, words, frame, state, label);
    return true;
  }
  return builtin(name, words, frame, state, label);
}

function shell(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  const parsed = parseOptions(words, 1, SHELL_OPTIONS);
  if (parsed.unknown) return dynamic(state, label, `${name} option ${parsed.unknown} is not known`);
  const operand = words[parsed.operandIndex];
  if (hasOption(parsed, '-c')) {
    if (!operand) return;
    if (!operand.static) return dynamic(state, label, `${name} -c runs a command string that is not static`);
    return state.nested(operand.text, frame, label);
  }
  if (operand && !hasOption(parsed, '-s')) return scriptOperand(name, operand, frame, state, label);
  fromStdin(name, frame, state, label, (text) => state.nested(text, scriptFrame(frame), label));
}

/** Commands of a script read from stdin would read the rest of that script: text not known here. */
function scriptFrame(frame: Frame): Frame {
  return { ...frame, stdin: { kind: 'text', text: null } };
}

/** A script file runs like any program (the allow-list decides), but not one made by another command. */
function scriptOperand(name: string, operand: ResolvedWord, frame: Frame, state: ScanState, label: string): void {
  if (operand.static && operand.text !== '-' && operand.text !== '/dev/stdin') return;
  if (operand.static) return fromStdin(name, frame, state, label, (text) => state.nested(text, scriptFrame(frame), label));
  if (operand.source.startsWith('<(')) return destructive(state, label, `${name} runs code produced by another command`);
  dynamic(state, label, `${name} runs a script whose name is not static (${operand.source})`);
}

/** A program read from stdin: a pipe is someone else's output, a heredoc is text we can read. */
function fromStdin(name: string, frame: Frame, state: ScanState, label: string, onText: (text: string) => void): void {
  const stdin = frame.stdin;
  if (stdin.kind === 'pipe') return destructive(state, label, `pipes data into ${name}, which runs it as code`);
  if (stdin.kind === 'text') {
    if (stdin.text === null) return dynamic(state, label, `${name} runs a heredoc that is not static`);
    return onText(stdin.text);
  }
}

function interpreted(name: string, interpreter: Interpreter, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  // `deno eval CODE`, `bun -e`: a subcommand that takes inline code.
  if (words[1]?.text === 'eval') return dynamic(state, label, `${name} eval runs inline code`);
  const parsed = parseOptions(words, 1, interpreter.options);
  if (parsed.options.some((option) => interpreter.inline.includes(option.name))) {
    return dynamic(state, label, `${name} runs inline code, which cannot be classified`);
  }
  if (parsed.unknown) return dynamic(state, label, `${name} option ${parsed.unknown} is not known`);
  if (hasOption(parsed, '-m')) return;
  const operand = words[parsed.operandIndex];
  if (operand) return scriptOperand(name, operand, frame, state, label);
  fromStdin(name, frame, state, label, () => dynamic(state, label, `${name} runs code from a heredoc, which cannot be classified`));
}

function builtin(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): boolean {
  const args = words.slice(1);
  switch (name) {
    case 'eval': {
      if (args.length === 0) return true;
      if (!args.every((w) => w.static)) dynamic(state, label, 'eval runs a string that is not static');
      else state.nested(args.map((w) => w.text).join(' '), frame, label);
      return true;
    }
    case 'source':
    case '.': {
      const file = args[0];
      if (file && !file.static && file.source.startsWith('<(')) destructive(state, label, `${name} runs code produced by another command`);
      else if (file?.text === '/dev/stdin' && frame.stdin.kind === 'pipe') destructive(state, label, `pipes data into ${name}, which runs it as code`);
      else dynamic(state, label, `${name} runs the commands of a file, which are not analysed`);
      return true;
    }
    case 'trap': {
      // `trap 'code' EXIT` runs the code later; `trap -l`/`trap -p` only print.
      const action = args[0];
      if (!action || action.text.startsWith('-')) return true;
      if (!action.static) dynamic(state, label, 'trap installs a handler that is not static');
      else state.nested(action.text, frame, label);
      return true;
    }
    case 'alias':
      // An alias body runs wherever the alias is used, so it is classified as code here.
      for (const arg of args) {
        if (!arg.static) dynamic(state, label, 'alias defines a body that is not static');
        else if (arg.text.includes('=')) state.nested(arg.text.slice(arg.text.indexOf('=') + 1), frame, label);
      }
      return true;
    case 'hash':
    case 'enable':
    case 'bind':
    case 'complete':
      if (args.length > 0) dynamic(state, label, `${name} can change which code a command name runs`);
      return true;
    case 'mapfile':
    case 'readarray':
      if (args.some((w) => w.text === '-C' || w.text.startsWith('-C'))) dynamic(state, label, `${name} -C runs a callback`);
      return true;
    case 'read':
    case 'printf': {
      // Both can assign a variable by name (`read PATH`, `printf -v PATH ...`).
      const parsed = parseOptions(words, 1, name === 'read' ? { shortValue: 'adinNptu', shortFlags: 'ers' } : { shortValue: 'v' });
      const assigned = name === 'read' ? words.slice(parsed.operandIndex) : [];
      const target = optionValue(parsed, name === 'read' ? '-a' : '-v');
      if (target) assigned.push(target);
      if (assigned.some((w) => !w.static || isDangerousVariable(w.text))) dynamic(state, label, `${name} assigns a variable that changes what later commands run`);
      return name === 'read';
    }
    default:
      return false;
  }
}
