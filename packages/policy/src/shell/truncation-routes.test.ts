import { describe, expect, it } from 'vitest';
import { type Route, checkRoute } from '../testing/route-check';
import { analyzeShell } from './analyze-shell';

/**
 * Emptying a workspace file destroys what it held, however it is spelled: if `truncate -s0 f`
 * asks first, so do `> f`, `tee f </dev/null` and `sort -o f` with nothing to sort. Writing new
 * content (`echo hi > out.txt`), appending, and writing to /dev/null or a scratch file do not.
 * The pre-check cannot know whether the file exists, so an empty write counts as emptying it.
 */
const EMPTIES: Route[] = [
  ['> build.log', 'destructive', 'shell-destructive'],
  [': > data.txt', 'destructive', 'shell-destructive'],
  ['true > data.txt', 'destructive', 'shell-destructive'],
  ['X=1 > data.txt', 'destructive', 'shell-destructive'],
  ['cat /dev/null > data.txt', 'destructive', 'shell-destructive'],
  ['cat < /dev/null > data.txt', 'destructive', 'shell-destructive'],
  ['cat > data.txt', 'destructive', 'shell-destructive'],
  ['echo -n > data.txt', 'destructive', 'shell-destructive'],
  [`printf '' > data.txt`, 'destructive', 'shell-destructive'],
  ['tee data.txt </dev/null', 'destructive', 'shell-destructive'],
  ['tee data.txt', 'destructive', 'shell-destructive'],
  ['sort -o data.txt </dev/null', 'destructive', 'shell-destructive'],
  ['sort -o data.txt', 'destructive', 'shell-destructive'],
  ['sort -o data.txt /dev/null', 'destructive', 'shell-destructive'],
  ['truncate -s0 data.txt', 'destructive', 'shell-destructive'],
  ['truncate --size=0 a.txt b.txt', 'destructive', 'shell-destructive'],
  ['cp /dev/null data.txt', 'destructive', 'shell-destructive'],
  ['dd if=/dev/null of=data.txt', 'destructive', 'shell-destructive'],
  ['sed -i d data.txt', 'destructive', 'shell-destructive'],
  [`sed -i '1,$d' data.txt`, 'destructive', 'shell-destructive'],
  ['cd src && > index.ts', 'destructive', 'shell-destructive'],
  [`sh -c ': > data.txt'`, 'destructive', 'shell-destructive'],
  ['> /etc/passwd', 'destructive', 'shell-destructive'],
  ['echo > data.txt', 'destructive', 'shell-destructive'],
  // The shell truncates the file before the command reads it.
  ['sort data.txt > data.txt', 'destructive', 'shell-destructive'],
  [`sed 's/a/b/' ./data.txt > data.txt`, 'destructive', 'shell-destructive'],
  ['tr a-z A-Z < data.txt > data.txt', 'destructive', 'shell-destructive'],
  ['cat > data.txt', 'destructive', 'shell-destructive', { stdin: '' }],
];

/** Writes of new content, appends, and writes that destroy nothing the run keeps. */
const WRITES: Route[] = [
  ['echo hi > out.txt', '', 'shell-safe'],
  ['echo hi >> out.txt', '', 'shell-safe'],
  ['tee -a data.txt </dev/null', '', 'shell-safe'],
  ['echo x | tee out.txt', '', 'shell-safe'],
  ['tee data.txt', '', 'shell-safe', { stdin: 'hello\n' }],
  ['sort -o sorted.txt data.txt', '', 'shell-safe'],
  ['sort data.txt -o data.txt', '', 'shell-safe'],
  ['cat a.txt b.txt > both.txt', '', 'shell-safe'],
  ['sort data.txt > sorted.txt', '', 'shell-safe'],
  ['echo data.txt > data.txt', '', 'shell-safe'],
  [`echo "$X" > out.txt`, '', 'shell-safe'],
  [`cat <<'EOF' > notes.md\nhello\nEOF`, '', 'shell-safe'],
  ['ls > /dev/null 2>&1', '', 'shell-safe'],
  ['> /dev/null', '', 'shell-safe'],
  ['true > /tmp/scratch.log', '', 'shell-safe'],
  ['truncate -s0 /tmp/scratch.log', '', 'shell-other'],
  [`sed -i 's/foo/bar/g' src/a.ts`, '', 'shell-safe'],
];

describe('emptying a file is destructive however it is spelled', () => {
  it.each(EMPTIES)('%s → %s (%s)', (line, classes, rule, args) => {
    checkRoute([line, classes, rule, args]);
  });

  it.each(WRITES)('%s → %s (%s)', (line, classes, rule, args) => {
    checkRoute([line, classes, rule, args]);
  });

  it('says which file is emptied', () => {
    expect(analyzeShell(': > data.txt').destructive).toEqual([{ command: '> data.txt', reason: 'empties data.txt, losing what it held' }]);
    expect(analyzeShell('truncate -s0 data.txt').destructive[0]?.reason).toBe('truncates data.txt, losing what it held');
    expect(analyzeShell('tee a b </dev/null').destructive.map((f) => f.reason)).toEqual(['empties a, losing what it held', 'empties b, losing what it held']);
  });
});
