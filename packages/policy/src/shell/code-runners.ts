import { type Frame, type ScanState, dynamic, runsCode } from './scan-state';
import type { ResolvedWord } from './words';

/**
 * Programs that run code the line does not show: build and task runners (the workspace's
 * Makefile, package.json scripts, tests), tools whose configuration names programs (git's
 * `.git/config` and `~/.gitconfig`; HOME is the workspace in the sandbox, so both can be planted),
 * and options whose value is a program or code written in the line (`make --eval`,
 * `tar --to-command`). Interpreters and shells are classified in `interpreters.ts`/`run-code.ts`.
 */
interface CodeRunner {
  /** What every run executes, completing `${name} runs ...`; absent: only `inline` options run code. */
  runs?: string;
  /** First arguments after which nothing runs (`npm ls`, `git --version`). */
  quiet?: readonly string[];
  /** Options whose value is code or a program written in the line: dynamic as well. */
  inline?: readonly string[];
  /** Commands the program runs that are written in its arguments (`git rebase --exec CMD`), classified in turn. */
  inLine?: (words: ResolvedWord[], frame: Frame, state: ScanState, label: string) => void;
}

const INFO = ['--version', '--help'];
const BUILD = 'code from the workspace (its build files, tests or configuration)';
const SCRIPTS = 'package.json scripts and the install scripts of packages in node_modules';
const GIT = "programs the repository's .git/config or ~/.gitconfig names (core.fsmonitor, diff.external, core.pager, hooks)";

const NPM_QUIET = [
  'ls',
  'list',
  'll',
  'la',
  'view',
  'v',
  'info',
  'show',
  'outdated',
  'search',
  'help',
  'config',
  'get',
  'prefix',
  'root',
  'whoami',
  'ping',
  'doctor',
  'fund',
  'explain',
  'why',
  'query',
  '-v',
  '-h',
  ...INFO,
];
const PNPM_QUIET = ['ls', 'list', 'll', 'why', 'outdated', 'view', 'info', 'help', 'config', 'root', 'bin', '-v', '-h', ...INFO];
const YARN_QUIET = ['info', 'list', 'why', 'help', 'config', 'versions', '-v', '-h', ...INFO];
const PIP_QUIET = ['list', 'show', 'freeze', 'check', 'help', 'config', 'cache', 'index', 'inspect', 'search', 'debug', '-V', ...INFO];
const MAKE: CodeRunner = { runs: 'the recipes of the Makefile (and the $(shell ...) calls in it)', quiet: ['-v', '-h', ...INFO], inline: ['--eval', '-E'] };
const NPX: CodeRunner = { runs: 'a package binary from node_modules/.bin (or a downloaded package)', quiet: ['-v', '-h', ...INFO] };
const TOOLCHAIN: CodeRunner = { runs: BUILD, quiet: INFO };
const VIM: CodeRunner = { runs: 'commands from its startup files (~/.vimrc) and modelines', inline: ['-c', '--cmd'] };

const TABLE: Record<string, CodeRunner> = {
  make: MAKE,
  gmake: MAKE,
  bmake: MAKE,
  npm: { runs: SCRIPTS, quiet: NPM_QUIET },
  pnpm: { runs: SCRIPTS, quiet: PNPM_QUIET },
  yarn: { runs: SCRIPTS, quiet: YARN_QUIET },
  npx: NPX,
  pnpx: NPX,
  bunx: NPX,
  git: { runs: GIT, quiet: ['--version', 'version'], inLine: gitCommands },
  go: {
    runs: 'the Go toolchain on the workspace (tests, go:generate lines, cgo and -toolexec programs)',
    quiet: ['version', 'env', 'help', 'doc', 'fmt', 'mod', 'clean'],
  },
  cargo: { runs: 'build scripts (build.rs), procedural macros and the runners .cargo/config.toml names', quiet: ['-V', 'version', 'help', ...INFO] },
  pytest: { runs: "the workspace's tests, conftest.py files and plugins" },
  'py.test': { runs: "the workspace's tests, conftest.py files and plugins" },
  tox: TOOLCHAIN,
  nox: TOOLCHAIN,
  pipenv: TOOLCHAIN,
  poetry: TOOLCHAIN,
  uv: TOOLCHAIN,
  pip: { runs: 'the setup scripts of the packages it builds', quiet: PIP_QUIET },
  pip3: { runs: 'the setup scripts of the packages it builds', quiet: PIP_QUIET },
  mvn: TOOLCHAIN,
  mvnw: TOOLCHAIN,
  gradle: TOOLCHAIN,
  gradlew: TOOLCHAIN,
  ant: TOOLCHAIN,
  sbt: TOOLCHAIN,
  lein: TOOLCHAIN,
  bazel: TOOLCHAIN,
  bazelisk: TOOLCHAIN,
  buck: TOOLCHAIN,
  ninja: TOOLCHAIN,
  cmake: TOOLCHAIN,
  ctest: TOOLCHAIN,
  meson: TOOLCHAIN,
  scons: TOOLCHAIN,
  rake: TOOLCHAIN,
  bundle: TOOLCHAIN,
  composer: TOOLCHAIN,
  mix: TOOLCHAIN,
  dotnet: TOOLCHAIN,
  swift: TOOLCHAIN,
  phpunit: TOOLCHAIN,
  rspec: TOOLCHAIN,
  jest: TOOLCHAIN,
  vitest: TOOLCHAIN,
  mocha: TOOLCHAIN,
  ava: TOOLCHAIN,
  karma: TOOLCHAIN,
  playwright: TOOLCHAIN,
  cypress: TOOLCHAIN,
  eslint: TOOLCHAIN,
  prettier: TOOLCHAIN,
  webpack: TOOLCHAIN,
  vite: TOOLCHAIN,
  rollup: TOOLCHAIN,
  parcel: TOOLCHAIN,
  next: TOOLCHAIN,
  turbo: TOOLCHAIN,
  nx: TOOLCHAIN,
  lerna: TOOLCHAIN,
  gulp: TOOLCHAIN,
  grunt: TOOLCHAIN,
  java: { runs: 'Java classes and jars' },
  jshell: { runs: 'Java' },
  groovy: { runs: 'Groovy', inline: ['-e'] },
  ssh: { runs: 'ProxyCommand and LocalCommand programs from ~/.ssh/config (or -o)', quiet: ['-V'] },
  scp: { runs: 'ProxyCommand programs from ~/.ssh/config (or -o)' },
  sftp: { runs: 'ProxyCommand programs from ~/.ssh/config (or -o)' },
  vim: VIM,
  vi: VIM,
  nvim: VIM,
  view: VIM,
  vimdiff: VIM,
  ex: VIM,
  emacs: { runs: 'Lisp from its startup files (~/.emacs)', inline: ['--eval', '-eval', '--execute'] },
  psql: { runs: 'commands from ~/.psqlrc, whose \\! lines run shell commands', quiet: ['-V', ...INFO] },
  mysql: { runs: 'the pager and commands ~/.my.cnf names', quiet: ['-V', ...INFO] },
  mariadb: { runs: 'the pager and commands ~/.my.cnf names', quiet: ['-V', ...INFO] },
  sqlite3: { runs: 'dot-commands from ~/.sqliterc (.shell and .system run shell commands)', quiet: ['-version', '-help'], inline: ['-cmd'] },
  tar: { inline: ['--to-command', '-I', '--use-compress-program', '--checkpoint-action', '-F', '--info-script', '--new-volume-script', '--rsh-command'] },
  rsync: { inline: ['-e', '--rsh', '--rsync-path'] },
  zip: { inline: ['-TT', '--unzip-command'] },
  sdiff: { inline: ['--diff-program'] },
  diff3: { inline: ['--diff-program'] },
  rg: { inline: ['--pre', '--hostname-bin'] },
  sort: { inline: ['--compress-program'] },
};

/** Whether `word` sets option `flag`: `--flag`, `--flag=V`, `-F`, or `-FV` for a one-letter flag. */
function setsOption(word: string, flag: string): boolean {
  if (word === flag) return true;
  if (flag.startsWith('--')) return word.startsWith(`${flag}=`);
  return /^-[A-Za-z]$/.test(flag) && word.startsWith(flag) && !word.startsWith('--');
}

/** Records what `name` runs that the line does not show, if it is one of the programs above. */
export function checkCodeRunner(name: string, words: ResolvedWord[], frame: Frame, state: ScanState): void {
  const runner = TABLE[name];
  if (!runner) return;
  const label = words.map((w) => w.source).join(' ');
  const args = words.slice(1).map((w) => w.text);
  const inline = runner.inline?.find((flag) => args.some((arg) => setsOption(arg, flag)));
  if (inline) {
    dynamic(state, label, `${name} ${inline} runs code or a program written in the line, which cannot be classified`);
    runsCode(state, label, `${name} ${inline} runs code or a program written in the line`);
  }
  runner.inLine?.(words, frame, state, label);
  if (!runner.runs || (args[0] !== undefined && runner.quiet?.includes(args[0]))) return;
  runsCode(state, label, `${name} runs ${runner.runs}`);
}

/** git's subcommand and the words after it, past git's own options. */
function gitSubcommand(words: ResolvedWord[]): { sub: string | undefined; rest: ResolvedWord[] } {
  let i = 1;
  while (i < words.length && (words[i] as ResolvedWord).text.startsWith('-')) {
    const arg = (words[i] as ResolvedWord).text;
    i += /^(-c|-C|--git-dir|--work-tree|--namespace|--exec-path|--super-prefix|--config-env)$/.test(arg) ? 2 : 1;
  }
  return { sub: words[i]?.text, rest: words.slice(i + 1) };
}

/** Commands git runs from its arguments: `submodule foreach CMD`, `rebase --exec CMD`, `bisect run CMD...`, `difftool -x CMD`. */
function gitCommands(words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  const { sub, rest } = gitSubcommand(words);
  const line = (text: string | undefined, static_ = true) => {
    if (text === undefined) return;
    if (!static_) dynamic(state, label, `git ${sub} runs a command that is not static`);
    else state.nested(text, frame, label);
  };
  if (sub === 'submodule' && rest[0]?.text === 'foreach') {
    const command = rest.slice(1).filter((w) => !w.text.startsWith('--'));
    return line(
      command.map((w) => w.text).join(' ') || undefined,
      command.every((w) => w.static),
    );
  }
  if (sub === 'bisect' && rest[0]?.text === 'run' && rest.length > 1) return state.classify(rest.slice(1), frame, ['git']);
  const flags = sub === 'rebase' ? ['-x', '--exec'] : sub === 'difftool' ? ['-x', '--extcmd'] : [];
  rest.forEach((word, i) => {
    const flag = flags.find((f) => word.text === f || word.text.startsWith(`${f}=`));
    if (!flag) return;
    const value = word.text === flag ? rest[i + 1] : { ...word, text: word.text.slice(flag.length + 1) };
    if (value) line(value.text, value.static);
  });
}
