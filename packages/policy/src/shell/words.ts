import { type SyntaxNode, children, sourceOf } from './syntax-tree';

/**
 * A shell word after quote removal. `static` is false when its value depends on the run (a
 * variable, a command substitution, arithmetic, ...): then `text` is the word's source.
 * `expands` is true when unquoted glob or brace syntax can turn it into other or more words.
 */
export interface ResolvedWord {
  text: string;
  static: boolean;
  expands: boolean;
  source: string;
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of `$'...'` (ANSI-C quoting): `$'r\x6d'` is `rm`. */
function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, esc: string) => {
    const head = esc[0] as string;
    if (head === 'x' || head === 'u' || head === 'U') return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
    if (head === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
    return ANSI_SIMPLE[esc] ?? whole;
  });
}

/** Outside quotes a backslash quotes the next character; backslash-newline disappears. */
function unescapeBare(value: string): string {
  return value.replace(/\\(\n|.)/gs, (_, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes (and unquoted heredocs) a backslash only quotes $ ` " \ and newline. */
export function unescapeDouble(value: string, quote = '"'): string {
  const special = new Set(['$', '`', '\\', '\n', quote]);
  return value.replace(/\\(\n|.)/gs, (whole, c: string) => (special.has(c) ? (c === '\n' ? '' : c) : whole));
}

/**
 * Whether unquoted literal text holds glob or brace syntax (an unescaped `*`, `?`, `[...]`, or
 * `{a,b}`/`{1..3}`). A `[` with no `]` after it matches only itself (`[` the test command).
 */
function hasExpansionSyntax(raw: string): boolean {
  const plain = raw.replace(/\\./gs, '_');
  return /[*?]/.test(plain) || /\[.*\]/s.test(plain) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(plain);
}

interface PartValue {
  text: string;
  static: boolean;
  expands: boolean;
}

function partValue(part: SyntaxNode, bytes: Uint8Array, inDouble: boolean): PartValue {
  switch (part.type) {
    case 'Lit': {
      const raw = String(part.Value ?? '');
      if (inDouble) return { text: unescapeDouble(raw), static: true, expands: false };
      return { text: unescapeBare(raw), static: true, expands: hasExpansionSyntax(raw) };
    }
    case 'SglQuoted': {
      const raw = String(part.Value ?? '');
      return { text: part.Dollar ? decodeAnsiC(raw) : raw, static: true, expands: false };
    }
    case 'DblQuoted': {
      const inner = children(part, 'Parts').map((p) => partValue(p, bytes, true));
      return { text: inner.map((p) => p.text).join(''), static: inner.every((p) => p.static), expands: false };
    }
    default:
      // ParamExp, CmdSubst, ArithmExp, ProcSubst, ExtGlob, BraceExp: known only when the shell runs.
      return { text: sourceOf(bytes, part), static: false, expands: part.type === 'ExtGlob' };
  }
}

/** Resolves a `Word` node: quotes removed, escapes applied, and whether the result is static. */
export function resolveWord(word: SyntaxNode, bytes: Uint8Array): ResolvedWord {
  const parts = children(word, 'Parts').map((part) => partValue(part, bytes, false));
  const source = sourceOf(bytes, word);
  const isStatic = parts.every((p) => p.static);
  return { text: isStatic ? parts.map((p) => p.text).join('') : source, static: isStatic, expands: parts.some((p) => p.expands), source };
}

/** A word given as a literal argv element (no shell involved: nothing expands). */
export function literalWord(text: string): ResolvedWord {
  return { text, static: true, expands: false, source: text };
}
