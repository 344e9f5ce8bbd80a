import { describe, it } from 'vitest';
import { checkRoute } from '../testing/route-check';

/**
 * Everyday lines that must stay allowed. Those that run no code beyond what the line shows are
 * allowed by `shell-safe` with nothing flagged. Those that run the workspace's code are allowed by
 * `shell-safe-runs-code`: that includes every git command, because git reads the repository's
 * `.git/config` (and `~/.gitconfig`; HOME is the workspace), which can name programs git runs
 * (`core.fsmonitor` runs on `git status`). The pre-check cannot vouch for that config; the
 * effect check after the call can.
 */
const PLAIN: string[] = [
  'ls',
  'ls -la src',
  'cat README.md',
  'head -n 20 src/index.ts',
  'tail -n 5 logs/out.log',
  'grep -rn TODO src',
  'grep -rn "TODO" src | sort | uniq -c',
  'rg TODO src',
  'wc -l src/*.ts',
  'jq . package.json',
  'jq -r .version package.json',
  'sort data.txt',
  'sort -u a.txt | uniq -c',
  'diff a.txt b.txt',
  'cmp a.bin b.bin',
  'mkdir -p src/new',
  'mkdir -p src/new && touch src/new/index.ts',
  'echo hi > out.txt',
  `printf '%s\\n' a b > list.txt`,
  `find . -name '*.ts'`,
  'find . -type f | wc -l',
  `find . -name '*.ts' -exec grep -l foo {} +`,
  'cut -d, -f1 data.csv',
  'tr a-z A-Z < in.txt',
  'tree -L 2',
  'du -sh .',
  'df -h',
  'stat package.json',
  'file logo.png',
  'realpath src',
  'basename /a/b.txt',
  'dirname /a/b.txt',
  'readlink -f src',
  'seq 1 10',
  'sleep 1',
  'date',
  'pwd',
  'which node',
  'whoami',
  'cd src && ls',
  'test -f package.json && echo yes',
  '[ -d src ] || mkdir src',
  'echo $HOME',
  'FOO=1 ls',
  'ls | xargs grep -l foo',
  `sed -n '1,5p' README.md`,
  `sed -i.bak 's/a/b/' notes.txt`,
  `sed ':a;N;$!ba;s/\n/ /g' notes.txt`,
  `sed -n '/^start/,/^end/{/end/!p}' notes.txt`,
  `sed 's|/usr/local|/opt|g; s/[/]x/y/' paths.txt`,
  `sed -i 's/a/b/w changes.txt' notes.txt`,
  `sed '1i\\\nheader' notes.txt`,
  'node --version',
  'python3 --version',
  'npm ls',
  'echo tmp > /tmp/scratch.txt',
  'grep foo src/a.ts 2>/dev/null',
];

/** Lines that run the workspace's code (tests, scripts, git with its config), allowed because their effect is checked. */
const RUNS_CODE: string[] = [
  'git status',
  'git diff --stat',
  'git log --oneline -n 5 | head -3',
  'git show HEAD',
  'git branch',
  'git grep TODO',
  'npm test',
  'npm run lint',
  'npm run test -- --watch=false',
  'npx tsc --noEmit',
  'node scripts/check.js',
  'node --max-old-space-size=4096 scripts/build.js',
  'python3 -m pytest -q',
  'python3 scripts/report.py > report.txt',
  'make test',
  'go vet ./...',
  'cargo test',
  `awk '{ print $1 }' data.txt`,
  `awk -F, '{ sum += $2 } END { print sum }' data.csv`,
  `awk '/error|warn/ { n++ } END { print n }' app.log`,
];

describe('harmless lines stay allowed', () => {
  it.each(PLAIN)('%s → shell-safe, nothing flagged', (line) => {
    checkRoute([line, '', 'shell-safe']);
  });

  it.each(RUNS_CODE)('%s → shell-safe-runs-code', (line) => {
    checkRoute([line, 'runsCode', 'shell-safe-runs-code']);
  });
});
