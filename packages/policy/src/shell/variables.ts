import { type ScanState, dynamic, runsCode } from './scan-state';

/**
 * What setting an environment variable does to the commands that see it. Two kinds, by where the
 * code it brings in lives:
 * - `program`: the value names a program or injects code into every program (`PATH`,
 *   `LD_PRELOAD`, `GIT_SSH_COMMAND`, `NODE_OPTIONS`): the classification of the commands that see
 *   it no longer holds, so the line is dynamic (and runs code).
 * - `config`: the value moves where a program reads its configuration (`HOME`, `XDG_CONFIG_HOME`,
 *   `RIPGREP_CONFIG_PATH`, `GIT_*`): the configuration can name programs to run (`core.fsmonitor`,
 *   a ripgrep `--pre`), so the line runs code from files the analysis does not read.
 */
export type VariableEffect = 'program' | 'config';

const PROGRAM_VARIABLES = new Set([
  'PATH',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS0',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'NODE_OPTIONS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_EXEC_PATH',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'SSH_ASKPASS',
  'PAGER',
  'EDITOR',
  'VISUAL',
  'MANPAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'GCONV_PATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'MAKEFLAGS',
  'MFLAGS',
  'TAR_OPTIONS',
  'RUSTC_WRAPPER',
  'VIMINIT',
  'EXINIT',
  'LESS',
]);
const PROGRAM_PREFIXES = ['BASH_FUNC_', 'GIT_CONFIG', 'LD_', 'DYLD_'];

const CONFIG_VARIABLES = new Set([
  'HOME',
  'ZDOTDIR',
  'CURL_HOME',
  'WGETRC',
  'INPUTRC',
  'SCREENRC',
  'MYVIMRC',
  'MAKEFILES',
  'CLASSPATH',
  'SHELL',
  'GOFLAGS',
  'GOENV',
  'GOPATH',
  'GOROOT',
  'GOTOOLCHAIN',
  'GOBIN',
  'GOWORK',
]);
const CONFIG_PREFIXES = ['XDG_', 'GIT_', 'PYTHON', 'NODE_', 'NPM_', 'PERL', 'RUBY', 'GEM_', 'BUNDLE_', 'CARGO_', 'RUSTUP_', 'PIP_', 'UV_', 'POETRY_', 'LESS'];
/** `RIPGREP_CONFIG_PATH`, `PIP_CONFIG_FILE`, `npm_config_script_shell`, `DOCKER_CONFIG`, ... */
const CONFIG_PATTERN = /CONFIG/i;

/** What assigning `name` does to the commands that see it, or null for a variable that changes neither. */
export function variableEffect(name: string): VariableEffect | null {
  if (PROGRAM_VARIABLES.has(name) || PROGRAM_PREFIXES.some((prefix) => name.startsWith(prefix))) return 'program';
  if (CONFIG_VARIABLES.has(name) || CONFIG_PREFIXES.some((prefix) => name.startsWith(prefix)) || CONFIG_PATTERN.test(name)) return 'config';
  return null;
}

/** Whether assigning `name` changes which program runs or injects code into one. */
export function isDangerousVariable(name: string): boolean {
  return variableEffect(name) === 'program';
}

/**
 * Records what setting `name` does. `scope` names who sees it: `the command` for a prefix
 * (`HOME=/x git status`, `env X=1 cmd`), `later commands` for a plain or exported assignment.
 */
export function checkAssignment(state: ScanState, name: string, label: string, scope: 'the command' | 'later commands'): void {
  const effect = variableEffect(name);
  if (effect === 'program') {
    dynamic(state, label, `sets ${name}, which changes what ${scope === 'the command' ? 'the command runs' : 'later commands run'}`);
    runsCode(state, label, `sets ${name}, which can make ${scope} run a program or load code`);
  } else if (effect === 'config') {
    const readers = scope === 'the command' ? 'the command reads' : 'later commands read';
    runsCode(state, label, `sets ${name}, so ${readers} configuration (and the programs it names) from where the line chooses`);
  }
}
