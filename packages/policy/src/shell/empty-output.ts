import type { Stdin } from './scan-state';
import type { ResolvedWord } from './words';

/**
 * Whether a command writes nothing, so that `>` on it leaves its target empty (`> f`, `: > f`,
 * `cat /dev/null > f`, `tee f </dev/null`). Only the spellings that are empty for certain count; a
 * command that prints anything is an ordinary write of new content.
 */

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
 * (`X=1 > f`), a silent builtin, `echo -n`, `printf ''`, or `cat` of nothing but empty input.
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
      return texts.length > 0 && texts.every((t) => /^-[neE]+$/.test(t)) && texts.some((t) => t.includes('n'));
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
