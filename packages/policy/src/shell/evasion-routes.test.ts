import { describe, expect, it } from 'vitest';
import { type Route, checkRoute } from '../testing/route-check';
import { analyzeShell } from './analyze-shell';

/**
 * Lines that run code the command string does not show. No string analysis can say what such code
 * does, so the pre-check says so (`runsCode`): the default policy allows those on its safe list
 * (`shell-safe-runs-code`) only because every mutating call's effect is decided after it runs.
 * What the line itself shows is still judged before it runs: a literal destructive command is
 * destructive and asks first. Code written into the line (`node -e`, `python3 -c`, a heredoc) is
 * like code in a file written a moment before: it runs code, and its effect decides.
 */

/** The routes of the security review (issue #16), one line each. */
const ISSUE_ROUTES: Route[] = [
  [`node --import 'data:text/javascript,import fs from "node:fs"; fs.rmSync("build", { recursive: true })' app.js`, 'runsCode', 'shell-safe-runs-code'],
  [`awk -v x=1 'BEGIN{system("rm -rf build")}'`, 'runsCode+destructive', 'shell-destructive'],
  [`awk -vx=1 'BEGIN{system("rm -rf build")}'`, 'runsCode+destructive', 'shell-destructive'],
  [`awk -F : 'BEGIN{system("rm -rf build")}' /dev/null`, 'runsCode+destructive', 'shell-destructive'],
  [`awk -F: -v n=2 -- 'BEGIN{system("rm -rf build")}' data.txt`, 'runsCode+destructive', 'shell-destructive'],
  [`make test --eval='test: ; rm -rf build'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['python3 x.py', 'runsCode', 'shell-safe-runs-code'],
  ['python3 -m x', 'runsCode', 'shell-safe-runs-code'],
  ['python3 < x.py', 'runsCode', 'shell-safe-runs-code'],
  ['node -r ./x.js app.js', 'runsCode', 'shell-safe-runs-code'],
  ['sed -n -f x.sed f', 'runsCode', 'shell-safe-runs-code'],
  ['npm test', 'runsCode', 'shell-safe-runs-code'],
  ['HOME=/workspace/h git status', 'runsCode', 'shell-safe-runs-code'],
  ['XDG_CONFIG_HOME=/workspace/c git diff', 'runsCode', 'shell-safe-runs-code'],
  ['RIPGREP_CONFIG_PATH=/workspace/.rgrc rg TODO', 'runsCode', 'shell-safe-runs-code'],
];

/** Interpreters: every run runs code, from a file, a module, the line or its input. */
const INTERPRETERS: Route[] = [
  [`node -e "require('fs').rmSync('build', { recursive: true })"`, 'runsCode', 'shell-safe-runs-code'],
  [`node -p 'process.exit(0)'`, 'runsCode', 'shell-safe-runs-code'],
  ['node --require ./hook.js scripts/build.js', 'runsCode', 'shell-safe-runs-code'],
  ['node --import ./loader.mjs app.mjs', 'runsCode', 'shell-safe-runs-code'],
  ['node --env-file=.env app.js', 'runsCode', 'shell-safe-runs-code'],
  ['node --test', 'runsCode', 'shell-safe-runs-code'],
  ['python3 -m http.server --help', 'runsCode', 'shell-safe-runs-code'],
  [`node --require "$HOOK" app.js`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`python3 -c 'import shutil; shutil.rmtree("build")'`, 'runsCode', 'shell-safe-runs-code'],
  [`python3 - <<'EOF'\nimport shutil\nshutil.rmtree("build")\nEOF`, 'runsCode', 'shell-safe-runs-code'],
  [`node <<'EOF'\nrequire("fs").rmSync("build", { recursive: true })\nEOF`, 'runsCode', 'shell-safe-runs-code'],
  ['cat x.py | python3', 'runsCode+destructive', 'shell-destructive'],
  [`perl -e 'unlink "data.txt"'`, 'runsCode', 'shell-other'],
  ['perl script.pl', 'runsCode', 'shell-other'],
  [`ruby -e 'File.delete("data.txt")'`, 'runsCode', 'shell-other'],
  [`php -r 'unlink("data.txt");'`, 'runsCode', 'shell-other'],
  [`lua -e 'os.remove("data.txt")'`, 'runsCode', 'shell-other'],
  ['python3 x.py', 'runsCode', 'shell-safe-runs-code', { stdin: '' }],
  [`python3`, 'runsCode', 'shell-safe-runs-code', { stdin: 'import shutil; shutil.rmtree("build")' }],
  // Quoting and paths still spell the interpreter.
  [`n''ode x.js`, 'runsCode', 'shell-safe-runs-code'],
  [`"python3" x.py`, 'runsCode', 'shell-safe-runs-code'],
  ['/usr/bin/python3 x.py', 'runsCode', 'shell-safe-runs-code'],
  [`$'\\x6e\\x6f\\x64\\x65' x.js`, 'runsCode', 'shell-safe-runs-code'],
];

/** awk, sed and make: programs in their own languages, which can run commands. */
const TEXT_TOOLS: Route[] = [
  ['awk -f prog.awk data.txt', 'runsCode', 'shell-safe-runs-code'],
  [`awk -F , -f prog.awk -- data.csv`, 'runsCode', 'shell-safe-runs-code'],
  [`awk 'BEGIN { cmd = "rm -rf " "build"; system(cmd) }'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`awk '{ print | "sh" }' commands.txt`, 'runsCode+destructive', 'shell-destructive'],
  [`awk 'BEGIN { while (("rm -rf build" | getline line) > 0) print line }'`, 'runsCode+destructive', 'shell-destructive'],
  [`gawk 'BEGIN { f = "system"; @f("rm -rf build") }'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`awk --source 'BEGIN { system("rm -rf build") }'`, 'runsCode+destructive', 'shell-destructive'],
  [`awk '{ print > "/etc/passwd" }' data.txt`, 'runsCode+destructive', 'shell-destructive'],
  // Known limit: awk empties a file only at run time; the effect check holds that truncation.
  [`awk 'BEGIN { printf "" > "data.txt" }'`, 'runsCode', 'shell-safe-runs-code'],
  [`sed 's/x/y/e' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sed '1e rm -rf build' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sed --expression='w /etc/passwd' data.txt`, 'destructive', 'shell-destructive'],
  // GNU address flags (I, M) before the command still reach the e command.
  [`sed '/x/Ie rm -rf build' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sed -e '$!{' -e 'e id' -e '}' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sed 's/a/b/ ; Q ; e id' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sed 'k' data.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['sed -i -f x.sed data.txt', 'runsCode', 'shell-safe-runs-code'],
  ['make test', 'runsCode', 'shell-safe-runs-code'],
  ['make deploy', 'runsCode', 'shell-other'],
  ['make -f evil.mk test', 'runsCode', 'shell-other'],
];

/** Package scripts, build tools and test runners run the workspace's own code. */
const BUILD_TOOLS: Route[] = [
  ['npm run build', 'runsCode', 'shell-safe-runs-code'],
  ['npx vitest run', 'runsCode', 'shell-safe-runs-code'],
  ['npx some-package', 'runsCode', 'shell-other'],
  ['yarn test', 'runsCode', 'shell-other'],
  ['npm install', 'runsCode', 'shell-other'],
  ['go test ./...', 'runsCode', 'shell-safe-runs-code'],
  ['go build ./cmd/app', 'runsCode', 'shell-safe-runs-code'],
  ['cargo build', 'runsCode', 'shell-safe-runs-code'],
  ['cargo test', 'runsCode', 'shell-safe-runs-code'],
  ['pytest -q', 'runsCode', 'shell-safe-runs-code'],
  ['python3 -m pytest -q', 'runsCode', 'shell-safe-runs-code'],
  [`NODE_OPTIONS='--require ./evil.js' npm test`, 'runsCode+dynamic', 'shell-unclassifiable'],
];

/** git reads the repository's config, which can name programs it runs; config in the line cannot be read. */
const GIT: Route[] = [
  ['git status', 'runsCode', 'shell-safe-runs-code'],
  [`git -c core.fsmonitor='rm -rf build' status`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`git -c core.pager='sh -c "rm -rf build"' log`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['git --config-env=core.pager=EVIL log', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`git config alias.st '!rm -rf build'`, 'runsCode+destructive', 'shell-destructive'],
  ['git config core.fsmonitor ./fsmonitor.sh', 'runsCode+destructive', 'shell-destructive'],
  ['git config --get user.name', 'runsCode', 'shell-other'],
  [`GIT_SSH_COMMAND='rm -rf build' git fetch`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['GIT_CONFIG_GLOBAL=./evil.gitconfig git status', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['GIT_DIR=/tmp/evil/.git git status', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`echo '[core] fsmonitor = rm -rf build' >> .git/config`, 'destructive', 'shell-destructive'],
  ['cp hook.sh .git/hooks/pre-commit', 'destructive', 'shell-destructive'],
  [`git submodule foreach 'rm -rf build'`, 'runsCode+destructive', 'shell-destructive'],
  [`git rebase --exec 'rm -rf build' HEAD~3`, 'runsCode+destructive', 'shell-destructive'],
  ['git bisect run rm -rf build', 'runsCode+destructive', 'shell-destructive'],
  ['git status', 'runsCode', 'shell-safe-runs-code', { env: { HOME: '/workspace/h' } }],
];

/** Variables: moving where configuration is read runs code from files; naming a program or preloading code is dynamic. */
const ENVIRONMENT: Route[] = [
  ['LD_PRELOAD=./evil.so ls', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`BASH_ENV=./evil.sh bash -c 'ls'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['PATH=/workspace/bin:$PATH ls', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['PYTHONPATH=. python3 -m x', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['PYTHONUSERBASE=/workspace/u python3 -m x', 'runsCode', 'shell-safe-runs-code'],
  ['export HOME=/workspace/h; git status', 'runsCode', 'shell-safe-runs-code'],
  ['env HOME=/workspace/h git log', 'runsCode', 'shell-other'],
  ['env -i PATH=/tmp/evil ls', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['sudo HOME=/workspace/h git status', 'runsCode', 'shell-other'],
  ['ls', 'runsCode+dynamic', 'shell-unclassifiable', { env: { LD_PRELOAD: './evil.so' } }],
  ['rg TODO', 'runsCode', 'shell-safe-runs-code', { env: { RIPGREP_CONFIG_PATH: '/workspace/.rgrc' } }],
];

/** Wrappers, nesting, functions, aliases, eval and substitutions reach the same classification. */
const INDIRECTION: Route[] = [
  ['nice -n 5 node x.js', 'runsCode', 'shell-other'],
  ['timeout 60 npm test', 'runsCode', 'shell-other'],
  ['xargs node < files.txt', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['ls | xargs -n1 python3', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`find . -name '*.py' -exec python3 {} \\;`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['find build -delete', 'destructive', 'shell-destructive'],
  ['find build -exec rm -rf {} +', 'destructive', 'shell-destructive'],
  [`busybox sh -c 'rm -rf build'`, 'destructive', 'shell-destructive'],
  [`sh -c 'node x.js'`, 'runsCode', 'shell-other'],
  ['bash script.sh', 'runsCode', 'shell-other'],
  ['sh < script.sh', 'runsCode', 'shell-other'],
  [`zsh -c 'ls'`, 'runsCode', 'shell-other'],
  [`bash -lc 'ls'`, 'runsCode', 'shell-other'],
  ['source ./env.sh', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`eval 'python3 x.py'`, 'runsCode', 'shell-other'],
  ['echo cm0gLXJmIGJ1aWxk | base64 -d | sh', 'runsCode+destructive', 'shell-destructive'],
  ['ls $(python3 x.py)', 'runsCode', 'shell-safe-runs-code'],
  ['f() { node x.js; }; f', 'runsCode', 'shell-other'],
  [`alias ll='python3 x.py'`, 'runsCode', 'shell-other'],
  [`bash <<'EOF'\nnode x.js\nEOF`, 'runsCode', 'shell-other'],
  ['sh', 'destructive', 'shell-destructive', { stdin: 'rm -rf build' }],
  [`tar -xf a.tar --to-command='sh -c "rm -rf build"'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  ['rg --pre ./pre.sh TODO', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['rg --hostname-bin=./x.sh --hyperlink-format=default TODO', 'runsCode+dynamic', 'shell-unclassifiable'],
  ['sort --compress-program=./x.sh data.txt', 'runsCode+dynamic', 'shell-unclassifiable'],
  [`vim -c '!rm -rf build' notes.txt`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`psql -c '\\! rm -rf build'`, 'runsCode+dynamic', 'shell-unclassifiable'],
  [`sqlite3 app.db '.shell rm -rf build'`, 'runsCode+dynamic', 'shell-unclassifiable'],
];

const ALL = [...ISSUE_ROUTES, ...INTERPRETERS, ...TEXT_TOOLS, ...BUILD_TOOLS, ...GIT, ...ENVIRONMENT, ...INDIRECTION];

describe('code-running routes: the pre-check says what it cannot know', () => {
  it('covers the issue and at least 60 routes in all', () => {
    expect(ISSUE_ROUTES).toHaveLength(15);
    expect(ALL.length).toBeGreaterThanOrEqual(60);
  });

  it.each(ALL)('%s → %s (%s)', (line, classes, rule, args) => {
    checkRoute([line, classes, rule, args]);
  });

  it('names the command and why in each finding', () => {
    expect(analyzeShell('python3 -m x').runsCode).toEqual([{ command: 'python3 -m x', reason: 'python3 runs Python from the module x' }]);
    expect(analyzeShell('node -r ./x.js app.js').runsCode[0]?.reason).toBe('node runs JavaScript from ./x.js (loaded first) and the script app.js');
    expect(analyzeShell('HOME=/workspace/h git status').runsCode.map((f) => f.command)).toEqual(['HOME=/workspace/h', 'git status']);
    expect(analyzeShell(`awk -v x=1 'BEGIN{system("rm -rf build")}'`).destructive).toEqual([{ command: 'rm -rf build', reason: 'removes files' }]);
  });

  it('finds no code where only data is read (version, help and syntax-check options)', () => {
    for (const line of ['node --version', 'python3 --version', 'node --check app.js', 'git --version', 'npm ls', 'go version', 'cargo --version']) {
      expect(analyzeShell(line).runsCode, line).toEqual([]);
    }
  });
});
