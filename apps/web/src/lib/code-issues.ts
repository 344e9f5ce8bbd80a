import { jsonLanguage } from '@codemirror/lang-json';
import { LineCounter, parseDocument } from 'yaml';

/** One problem in an edited document, at its line and column (both 1-based), as the editor marks it. */
export interface CodeIssue {
  line?: number;
  column?: number;
  /** Dotted path of the value the problem is about ('' or absent: the document itself). */
  path?: string;
  message: string;
}

/** Line and column (1-based) of a character offset. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: before.length - lastBreak };
}

/**
 * Syntax errors of YAML text, read exactly as the server reads a policy (JSON is read as YAML),
 * so the line and column here are the ones the server would report.
 */
export function yamlSyntaxIssues(text: string): CodeIssue[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  return doc.errors.map((error) => ({
    line: error.linePos?.[0].line,
    column: error.linePos?.[0].col,
    // The pretty message repeats the position and quotes the source; the editor shows both.
    message: (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, ''),
  }));
}

/** Where the first error node of the JSON grammar sits; the end of the text if the grammar found none. */
function jsonErrorOffset(text: string): number {
  let offset = text.length;
  jsonLanguage.parser.parse(text).iterate({
    enter: (node) => {
      if (!node.type.isError || offset < text.length) return offset === text.length;
      offset = node.from;
      return false;
    },
  });
  return offset;
}

/**
 * The syntax error of JSON text (JSON.parse decides whether there is one; an empty text is no
 * error, the field is simply unset). The browser's message names the position only sometimes, so
 * the JSON grammar locates the error when it does not.
 */
export function jsonSyntaxIssues(text: string): CodeIssue[] {
  if (text.trim() === '') return [];
  try {
    JSON.parse(text);
    return [];
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const lineColumn = /\(line (\d+) column (\d+)\)/.exec(raw);
    const position = /at position (\d+)/.exec(raw);
    const at = lineColumn
      ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
      : positionOf(text, position ? Number(position[1]) : jsonErrorOffset(text));
    const message = raw
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ at position \d+.*$/s, '')
      .replace(/, (\.\.\.)?".*" is not valid JSON$/s, '')
      .replace(/^JSON\.parse: /, '');
    return [{ ...at, message }];
  }
}

/**
 * The line and column of the value at `path` in JSON or YAML text: the value itself, or the
 * nearest ancestor that exists (a missing key is reported at the object that lacks it).
 */
export function locatePath(text: string, path: ReadonlyArray<string | number>): { line: number; column: number } | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  if (doc.errors.length > 0) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

/** Schema issues (zod's, or the server's `{ path, message }`) placed at their line in `text`. */
export function issuesAtPaths(text: string, issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): CodeIssue[] {
  return issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol').map((p) => (typeof p === 'string' && /^\d+$/.test(p) ? Number(p) : p));
    return { path: path.join('.'), ...locatePath(text, path), message: issue.message };
  });
}
