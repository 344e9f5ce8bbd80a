import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The database's functions and triggers, read from the `.sql` files that sit next to the
 * TypeScript relying on them (packages/db/src/<area>/*.sql). Migrations build the database; these
 * files say what it must hold, and function-bodies.int.test.ts checks that a migrated database
 * holds exactly that. Each file is a list of `CREATE OR REPLACE FUNCTION` (body dollar-quoted) and
 * `CREATE OR REPLACE TRIGGER` statements, so a migration can apply a file's text again unchanged.
 */

export interface FunctionDefinition {
  kind: 'function';
  name: string;
  /** The text between the dollar quotes, as Postgres stores it in `pg_proc.prosrc`. */
  body: string;
  /** The statement, its comments left out. */
  sql: string;
  file: string;
}

export interface TriggerDefinition {
  kind: 'trigger';
  name: string;
  table: string;
  sql: string;
  file: string;
}

export type SqlDefinition = FunctionDefinition | TriggerDefinition;

/** packages/db/src, where the definition files live. */
const definitionsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Statement {
  /** The statement without its comments and without the closing `;`. */
  sql: string;
  /** The contents of its dollar-quoted strings, in order. */
  dollarQuoted: string[];
}

/** The `$tag$` opening a dollar-quoted string at `i`, if one does (not a `$` inside an identifier). */
function dollarTagAt(text: string, i: number): string | undefined {
  if (/[A-Za-z0-9_$]/.test(text[i - 1] ?? '')) return undefined;
  return /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))?.[0];
}

/** Where the quoted text starting at `start` (at `quote`) ends, just past its closing quote. */
function endOfQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote, i);
    if (close < 0) throw new Error(`unterminated ${quote} quote at offset ${start}`);
    // A doubled quote is an escaped one.
    if (text[close + 1] === quote) i = close + 2;
    else return close + 1;
  }
}

/** Splits SQL text at its top-level semicolons, skipping comments, quoted text and dollar-quoted bodies. */
export function splitStatements(text: string): Statement[] {
  const statements: Statement[] = [];
  let sql = '';
  let dollarQuoted: string[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i, i + 2);
    const tag = text[i] === '$' ? dollarTagAt(text, i) : undefined;
    if (rest === '--') {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
      sql += ' ';
    } else if (rest === '/*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) throw new Error(`unterminated comment at offset ${i}`);
      i = close + 2;
      sql += ' ';
    } else if (text[i] === "'" || text[i] === '"') {
      const end = endOfQuoted(text, i, text[i] as string);
      sql += text.slice(i, end);
      i = end;
    } else if (tag) {
      const close = text.indexOf(tag, i + tag.length);
      if (close < 0) throw new Error(`unterminated ${tag} quote at offset ${i}`);
      dollarQuoted.push(text.slice(i + tag.length, close));
      sql += text.slice(i, close + tag.length);
      i = close + tag.length;
    } else if (text[i] === ';') {
      if (sql.trim()) statements.push({ sql: sql.trim(), dollarQuoted });
      sql = '';
      dollarQuoted = [];
      i += 1;
    } else {
      sql += text[i];
      i += 1;
    }
  }
  if (sql.trim()) throw new Error(`statement without a closing semicolon: ${sql.trim().slice(0, 80)}`);
  return statements;
}

const identifier = '(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*))';
const createFunction = new RegExp(String.raw`^CREATE\s+OR\s+REPLACE\s+FUNCTION\s+${identifier}\s*\(`, 'i');
const createTrigger = new RegExp(
  String.raw`^CREATE\s+OR\s+REPLACE\s+TRIGGER\s+${identifier}\s+(?:BEFORE|AFTER|INSTEAD\s+OF)\s[\s\S]*?\sON\s+${identifier}\s`,
  'i',
);

/** A quoted identifier as written, an unquoted one folded to lower case (as Postgres does). */
function identifierName(quoted: string | undefined, bare: string | undefined): string {
  return quoted ?? (bare as string).toLowerCase();
}

/** The functions and triggers one definition file defines, in file order. */
export function parseDefinitions(text: string, file: string): SqlDefinition[] {
  return splitStatements(text).map((statement): SqlDefinition => {
    const fn = createFunction.exec(statement.sql);
    if (fn) {
      const [body, ...more] = statement.dollarQuoted;
      if (body === undefined || more.length > 0) throw new Error(`${file}: function ${fn[1] ?? fn[2]} needs exactly one dollar-quoted body`);
      return { kind: 'function', name: identifierName(fn[1], fn[2]), body, sql: statement.sql, file };
    }
    const trigger = createTrigger.exec(statement.sql);
    if (trigger) {
      return { kind: 'trigger', name: identifierName(trigger[1], trigger[2]), table: identifierName(trigger[3], trigger[4]), sql: statement.sql, file };
    }
    throw new Error(`${file}: only CREATE OR REPLACE FUNCTION and CREATE OR REPLACE TRIGGER belong here, not: ${statement.sql.slice(0, 80)}`);
  });
}

/** Every `.sql` file under `root` (the generated client left out), relative to it, sorted. */
export function definitionFiles(root: string = definitionsRoot): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.sql') && !file.split(path.sep).includes('generated'))
    .sort();
}

/** The functions and triggers of every definition file under `root`. */
export function readDefinitions(root: string = definitionsRoot): SqlDefinition[] {
  return definitionFiles(root).flatMap((file) => parseDefinitions(readFileSync(path.join(root, file), 'utf8'), file));
}
