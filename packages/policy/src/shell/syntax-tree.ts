/// <reference path="./mvdan-sh.d.ts" />
import type shModule from 'mvdan-sh';

/**
 * mvdan-sh is one large GopherJS file (about 17 MB resident once loaded): it is loaded on the
 * first shell command parsed, so a process that never decides a shell call never pays for it.
 * `require` is reached through `process.getBuiltinModule` so that bundlers leave it to run time.
 */
let parser: typeof shModule | null = null;
function shellParser(): typeof shModule {
  if (!parser) {
    const { createRequire } = process.getBuiltinModule('node:module');
    parser = createRequire(import.meta.url)('mvdan-sh') as typeof shModule;
  }
  return parser;
}

/**
 * The shell parser: mvdan/sh (the parser behind shfmt) compiled to JavaScript. Its tree is made of
 * GopherJS objects whose properties are rebuilt on every read, so one `parseScript` copies the whole
 * tree once into plain objects with stable identity; nothing else in the package touches mvdan-sh.
 */

/** A node of the copied tree: `type` is the Go type name (`CallExpr`, `Word`, ...), `pos`/`end` byte offsets. */
export interface SyntaxNode {
  type: string;
  pos: number;
  end: number;
  [field: string]: unknown;
}

/** Operator codes of mvdan/sh v3 (`syntax.BinCmdOperator`, `syntax.RedirOperator`). */
export const Op = {
  and: 10,
  or: 11,
  pipe: 12,
  pipeAll: 13,
  redirOut: 54,
  appOut: 55,
  redirIn: 56,
  rdrInOut: 57,
  dplIn: 58,
  dplOut: 59,
  clbOut: 60,
  hdoc: 61,
  dashHdoc: 62,
  wordHdoc: 63,
  rdrAll: 64,
  appAll: 65,
  procIn: 66,
  procOut: 67,
} as const;

/** A parse result: the tree, or the parser's error as `line:col: message`. */
export type ParseResult = { ok: true; file: SyntaxNode; bytes: Uint8Array } | { ok: false; error: string };

const GO_TYPE = /syntax\.\*(\w+)$/;
// Comments never run, and positions other than a node's own are never read: skipping them keeps
// the copy cheap (every property read of a GopherJS object converts it anew).
const SKIPPED = new Set(['__internal_object__', '$type', 'Pos', 'End', 'Comments', 'Last', 'CondLast', 'ThenLast', 'DoLast']);
const POSITION_FIELD = /(Pos|Position|Semicolon|ValueEnd|paren|brace|brack|^Left|^Right)$/;

type GoNode = Record<string, unknown> & { $type?: unknown; Pos?: () => { Offset(): number }; End?: () => { Offset(): number } };

function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  const go = value as GoNode;
  const match = typeof go.$type === 'string' ? GO_TYPE.exec(go.$type) : null;
  // Positions (`syntax.Pos`, a value type) carry nothing the analysis reads. Pointer structs that are
  // not nodes (`Expansion`, `Replace`, `Slice` inside `${...}`) are kept: they can hold words.
  if (!match) return undefined;
  const positioned = typeof go.Pos === 'function' && typeof go.End === 'function';
  const node: SyntaxNode = { type: match[1] as string, pos: positioned ? (go.Pos?.().Offset() ?? 0) : 0, end: positioned ? (go.End?.().Offset() ?? 0) : 0 };
  for (const key of Object.getOwnPropertyNames(go)) {
    if (SKIPPED.has(key) || POSITION_FIELD.test(key)) continue;
    const field = go[key];
    if (typeof field === 'function') continue;
    node[key] = copy(field);
  }
  return node;
}

function errorText(error: unknown): string {
  const go = error as { Error?: () => string } | null;
  if (go && typeof go.Error === 'function') return go.Error();
  return error instanceof Error ? error.message : String(error);
}

/** Parses a bash command line (bash is a superset of what `/bin/sh -c` accepts). Never throws. */
export function parseScript(source: string): ParseResult {
  let parsed: unknown;
  try {
    parsed = shellParser().syntax.NewParser().Parse(source, '');
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
  const file = copy(parsed);
  if (!file || (file as SyntaxNode).type !== 'File') return { ok: false, error: 'the parser returned no syntax tree' };
  return { ok: true, file: file as SyntaxNode, bytes: new TextEncoder().encode(source) };
}

/** The source text of a node (offsets are UTF-8 byte offsets, as in Go). */
export function sourceOf(bytes: Uint8Array, node: SyntaxNode): string {
  return new TextDecoder().decode(bytes.subarray(node.pos, node.end));
}

/** A field of a node as a node, or null. */
export function child(node: SyntaxNode, field: string): SyntaxNode | null {
  const value = node[field];
  return value && typeof value === 'object' && !Array.isArray(value) && typeof (value as SyntaxNode).type === 'string' ? (value as SyntaxNode) : null;
}

/** A field of a node as a list of nodes (missing → empty). */
export function children(node: SyntaxNode, field: string): SyntaxNode[] {
  const value = node[field];
  return Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as SyntaxNode[]) : [];
}
