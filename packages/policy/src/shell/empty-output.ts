import type { Stdin } from './scan-state';
import type { ResolvedWord } from './words';

/**
 * Whether a command writes nothing, so that `>` on it leaves its target empty (`> f`, `: > f`,
 * `cat /dev/null > f`, `tee f </dev/null`). Only the spellings that are empty for certain count; a
 * command that prints anything is an ordinary write of new content.
 */

/** Programs that read the files named in their arguments (or on stdin) and print what they read. */
const READERS = new Set([
  'cat',
  'tac',
  'sort',
  'uniq',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'head',
  'tail',
  'cut',
  'tr',
  'jq',
  'nl',
  'fold',
  'fmt',
  'rev',
  'column',
  'paste',
  'expand',
  'unexpand',
]);

/**
 * Whether a command reads `path` (an argument, or its stdin) while a redirection of the same
 * command truncates it: the shell empties the file before the command reads it (`sort f > f`).
 */
export function readsTruncatedFile(words: ResolvedWord[] | null, stdin: Stdin, path: string, same: (a: string, b: string) => boolean): boolean {
  if (stdin.kind === 'file' && stdin.path !== null && same(stdin.path, path)) return true;
  const head = words?.[0];
  if (!words || !head?.static || !READERS.has(head.text.slice(head.text.lastIndexOf('/') + 1))) return false;
  return words.slice(1).some((w) => w.static && !w.expands && same(w.text, path));
}

/**
 * Whether a command's standard input is empty. A call that gives no `stdin` runs with an empty one
 * (the sandbox closes it), so `none` at the top of the line is empty too.
 */
export function stdinIsEmpty(stdin: Stdin): boolean {
  if (stdin.kind === 'none') return true;
  if (stdin.kind === 'text') return stdin.text === '';
  if (stdin.kind === 'file') return stdin.path === '/dev/null';
  return false;
}

/** Builtins and programs that never print (their arguments aside). */
const SILENT = new Set([':', 'true', 'false', 'test', '[', 'sleep', 'cd', 'wait', 'shift']);

/**
 * Whether the command `words` prints nothing: no command at all (`> f`), an assignment only
 * (`X=1 > f`), a silent builtin, `echo` with nothing to say, `printf ''`, or `cat` of nothing but
 * empty input.
 * `null` (a compound command, a subshell) is never known to be silent.
 */
export function printsNothing(words: ResolvedWord[] | null, stdin: Stdin): boolean {
  if (words === null) return false;
  const head = words[0];
  if (!head) return true;
  if (!head.static) return false;
  const name = head.text.slice(head.text.lastIndexOf('/') + 1);
  const args = words.slice(1);
  if (!args.every((w) => w.static)) return SILENT.has(name);
  const texts = args.map((w) => w.text);
  switch (name) {
    case 'exec':
      return args.length === 0;
    case 'echo':
      // `echo > f` leaves only a newline: as empty as `: > f` for what f held.
      return texts.every((t) => t === '' || /^-[neE]+$/.test(t));
    case 'printf':
      return texts.length === 1 && texts[0] === '';
    case 'cat':
    case 'tac': {
      const files = texts.filter((t) => !t.startsWith('-') || t === '-');
      if (files.length === 0) return stdinIsEmpty(stdin);
      return files.every((f) => f === '/dev/null' || (f === '-' && stdinIsEmpty(stdin)));
    }
    default:
      return SILENT.has(name);
  }
}
