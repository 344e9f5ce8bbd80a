import { classifyInterpreter, interpreterOf, scriptOperand, stdinProgram } from './interpreters';
import { type OptionSpec, hasOption, optionValue, parseOptions } from './options';
import { type Frame, type ScanState, destructive, dynamic, runsCode } from './scan-state';
import { isDangerousVariable, variableEffect } from './variables';
import type { ResolvedWord } from './words';

/** Shells: `-c STRING` is parsed in turn; with no script operand they run what arrives on stdin. */
const SHELLS = new Set(['sh', 'bash', 'rbash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh']);
const SHELL_OPTIONS: OptionSpec = {
  shortValue: 'oO',
  shortFlags: 'abcefhiklmnprstuvxBCEHPT',
  longValue: ['--rcfile', '--init-file'],
  longFlags: ['--login', '--norc', '--noprofile', '--posix', '--noediting', '--restricted', '--verbose', '--debugger', '--dump-strings', '--pretty-print'],
};

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
    classifyInterpreter(name, interpreter, words, frame, state, label);
    return true;
  }
  return builtin(name, words, frame, state, label);
}

/** Startup files a shell runs before its commands (HOME is the workspace in the sandbox, so they can be planted there). */
interface Startup {
  always?: string;
  login?: string;
  interactive?: string;
  /** The option that skips them (`zsh -f`, `csh -f`). */
  skip?: string;
}
const POSIX_STARTUP: Startup = { login: '~/.profile', interactive: 'the file $ENV names' };
const STARTUP: Record<string, Startup> = {
  bash: { login: '~/.bash_profile or ~/.profile', interactive: '~/.bashrc' },
  rbash: { login: '~/.bash_profile or ~/.profile', interactive: '~/.bashrc' },
  zsh: { always: '~/.zshenv', skip: '-f' },
  fish: { always: '~/.config/fish/config.fish' },
  csh: { always: '~/.cshrc', skip: '-f' },
  tcsh: { always: '~/.tcshrc or ~/.cshrc', skip: '-f' },
};

function startupFiles(name: string, parsed: ReturnType<typeof parseOptions>): string | null {
  const startup = STARTUP[name] ?? POSIX_STARTUP;
  if (startup.skip && hasOption(parsed, startup.skip)) return null;
  if (startup.always) return startup.always;
  if (startup.login && hasOption(parsed, '-l', '--login')) return startup.login;
  if (startup.interactive && hasOption(parsed, '-i')) return startup.interactive;
  return null;
}

function shell(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  const parsed = parseOptions(words, 1, SHELL_OPTIONS);
  if (parsed.unknown) return dynamic(state, label, `${name} option ${parsed.unknown} is not known`);
  const startup = startupFiles(name, parsed);
  if (startup) runsCode(state, label, `${name} first runs ${startup}, which is not analysed`);
  const operand = words[parsed.operandIndex];
  if (hasOption(parsed, '-c')) {
    if (!operand) return;
    if (!operand.static) return dynamic(state, label, `${name} -c runs a command string that is not static`);
    return state.nested(operand.text, frame, label);
  }
  const nested = (text: string) => state.nested(text, scriptFrame(frame), label);
  if (operand && !hasOption(parsed, '-s')) {
    if (scriptOperand(name, operand, frame, state, label, nested)) runsCode(state, label, `${name} runs the script ${operand.text}, which is not analysed`);
    else if (!operand.static || frame.stdin.kind === 'pipe' || frame.stdin.kind === 'file')
      runsCode(state, label, `${name} runs a script the analysis cannot read`);
    return;
  }
  // Text on stdin is parsed and classified; a pipe or a file is code the analysis cannot read.
  const input = stdinProgram(name, frame, state, label, nested);
  if (input) runsCode(state, label, `${name} runs the commands of ${input}`);
  else if (input === null && frame.stdin.kind === 'pipe') runsCode(state, label, `${name} runs the commands it reads from a pipe`);
}

/** Commands of a script read from stdin would read the rest of that script: text not known here. */
function scriptFrame(frame: Frame): Frame {
  return { ...frame, stdin: { kind: 'text', text: null } };
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
      // Sourced code also defines what later names mean (functions, aliases, PATH): hence dynamic too.
      runsCode(state, label, `${name} runs the commands of ${file?.static ? file.text : 'a file'}`);
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
      if (assigned.some((w) => !w.static || isDangerousVariable(w.text)))
        dynamic(state, label, `${name} assigns a variable that changes what later commands run`);
      else if (assigned.some((w) => variableEffect(w.text) === 'config'))
        runsCode(state, label, `${name} assigns a variable that moves where later commands read configuration`);
      return name === 'read';
    }
    default:
      return false;
  }
}
