import { stdinIsEmpty } from './empty-output';
import { parseOptions } from './options';
import { type Frame, type ScanState, type Stdin, destructive, dynamic } from './scan-state';
import type { ResolvedWord } from './words';
import { checkEmptiedPath, checkWritePath } from './write-targets';

/**
 * Options of everyday read-only tools that write files or run programs. These tools are on safe
 * lists, so an option like `sort -o /etc/passwd` or `rg --pre CMD` must not ride along unseen.
 */

/** The value of `flag` in `--flag VALUE`, `--flag=VALUE` or (short) `-fVALUE`; one per occurrence. */
function values(words: ResolvedWord[], flags: string[]): ResolvedWord[] {
  const found: ResolvedWord[] = [];
  words.forEach((word, i) => {
    for (const flag of flags) {
      if (word.text === flag && words[i + 1]) found.push(words[i + 1] as ResolvedWord);
      else if (flag.startsWith('--') && word.text.startsWith(`${flag}=`)) found.push({ ...word, text: word.text.slice(flag.length + 1) });
      else if (!flag.startsWith('--') && word.text.startsWith(flag) && word.text.length > flag.length && /^-[a-zA-Z]$/.test(flag)) {
        found.push({ ...word, text: word.text.slice(flag.length) });
      }
    }
  });
  return found;
}

const present = (words: ResolvedWord[], flags: string[]) => words.some((w) => flags.some((flag) => w.text === flag || w.text.startsWith(`${flag}=`)));

const SORT_VALUE_SHORT = 'ktoST';
const SORT_VALUE_LONG = [
  '--key',
  '--field-separator',
  '--output',
  '--buffer-size',
  '--temporary-directory',
  '--parallel',
  '--batch-size',
  '--random-source',
  '--compress-program',
  '--sort',
];

/** Whether sort's input is certainly empty: no file operand (or only /dev/null) and an empty stdin. GNU sort takes options after operands too. */
function sortReadsNothing(args: ResolvedWord[], stdin: Stdin): boolean {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ResolvedWord;
    if (!word.static || word.text.startsWith('--files0-from')) return false;
    const text = word.text;
    if (text === '--') {
      operands.push(...args.slice(i + 1).map((w) => w.text));
      break;
    }
    if (text.startsWith('--')) {
      if (SORT_VALUE_LONG.includes(text)) i += 1;
    } else if (text.startsWith('-') && text !== '-') {
      const at = [...text.slice(1)].findIndex((c) => SORT_VALUE_SHORT.includes(c));
      if (at === text.length - 2) i += 1;
    } else operands.push(text);
  }
  if (operands.length === 0) return stdinIsEmpty(stdin);
  return operands.every((o) => o === '/dev/null' || (o === '-' && stdinIsEmpty(stdin)));
}

/** Records what a tool's options write or run. */
export function checkHiddenEffects(name: string, words: ResolvedWord[], frame: Frame, state: ScanState): void {
  const label = words.map((w) => w.source).join(' ');
  const args = words.slice(1);
  switch (name) {
    case 'sort': {
      // `sort -o f` with nothing to read (`</dev/null`, no stdin) leaves f empty.
      const empty = sortReadsNothing(args, frame.stdin);
      for (const file of values(args, ['-o', '--output'])) {
        if (empty) checkEmptiedPath(state, file, label);
        else checkWritePath(state, file, label);
      }
      return;
    }
    case 'uniq': {
      // `uniq INPUT OUTPUT`: the second operand is written.
      const parsed = parseOptions(words, 1, {
        shortValue: 'fsw',
        shortFlags: 'cdDiuz',
        longValue: ['--skip-fields', '--skip-chars', '--check-chars', '--all-repeated', '--group'],
        longFlags: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'],
      });
      if (parsed.unknown) return dynamic(state, label, `uniq option ${parsed.unknown} is not known, so what it writes is not known`);
      const output = words[parsed.operandIndex + 1];
      if (output) checkWritePath(state, output, label);
      return;
    }
    case 'tree':
      for (const file of values(args, ['-o'])) checkWritePath(state, file, label);
      return;
    case 'git':
      for (const file of values(args, ['--output'])) checkWritePath(state, file, label);
      if (args.some((w) => w.text === 'grep') && args.some((w) => w.text.startsWith('-O') || w.text.startsWith('--open-files-in-pager'))) {
        dynamic(state, label, 'git grep -O runs a pager program');
      }
      return;
    case 'date':
      if (present(args, ['-s', '--set'])) destructive(state, label, 'date --set changes the system clock');
      return;
    default:
  }
}
