import { AppError } from '@looplane/shared';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { type PolicyDocument, policyDocumentSchema } from './policy-schema';

/** One problem with a policy, located for the editor: a dotted path and, for text, line and column (1-based). */
export interface PolicyIssue {
  path: string;
  line?: number;
  column?: number;
  message: string;
}

/** A validated document, or every issue found. */
export type PolicyValidation = { ok: true; document: PolicyDocument } | { ok: false; issues: PolicyIssue[] };

/** Bigger than any policy a person writes; refusing early keeps parsing cheap. */
const MAX_TEXT = 1_000_000;

function describe(issue: PolicyIssue): string {
  const where = issue.line === undefined ? '' : ` (line ${issue.line}, column ${issue.column ?? 1})`;
  return `${issue.path || '(document)'}${where}: ${issue.message}`;
}

type Path = (string | number)[];

/** The YAML node nearest to `path`: the value itself, or the closest ancestor that exists. */
function locate(doc: Document, counter: LineCounter, path: Path): { line: number; column: number } | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

function schemaIssues(error: z.ZodError, doc?: Document, counter?: LineCounter): PolicyIssue[] {
  return error.issues.map((issue) => {
    let path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    // For an unknown key, point at the key itself rather than at the object holding it.
    if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path = [...path, issue.keys[0]];
    const at = doc && counter ? locate(doc, counter, path) : undefined;
    return { path: path.join('.'), ...at, message: issue.message };
  });
}

/**
 * Validates a policy given as JSON or YAML text (JSON is read as YAML, so one path gives both line
 * numbers) or as an already-parsed object. Never throws; the editor shows the issues.
 */
export function validatePolicyDocument(input: string | unknown): PolicyValidation {
  if (typeof input !== 'string') {
    const result = policyDocumentSchema.safeParse(input);
    return result.success ? { ok: true, document: result.data } : { ok: false, issues: schemaIssues(result.error) };
  }
  if (input.length > MAX_TEXT) return { ok: false, issues: [{ path: '', message: `the policy is longer than ${MAX_TEXT} characters` }] };
  if (input.trim() === '') return { ok: false, issues: [{ path: '', line: 1, column: 1, message: 'the policy is empty' }] };
  const counter = new LineCounter();
  const doc = parseDocument(input, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => ({
        path: '',
        line: error.linePos?.[0].line,
        column: error.linePos?.[0].col,
        // The pretty message repeats the position and quotes the source; the editor has both.
        message: (error.message.split('\n')[0] as string).replace(/ at line \d+, column \d+:?$/, ''),
      })),
    };
  }
  // Alias expansion is bounded so a "billion laughs" document fails instead of eating memory.
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, issues: [{ path: '', message: error instanceof Error ? error.message : String(error) }] };
  }
  const result = policyDocumentSchema.safeParse(data);
  return result.success ? { ok: true, document: result.data } : { ok: false, issues: schemaIssues(result.error, doc, counter) };
}

/**
 * Parses a policy from JSON/YAML text or an object. Throws `AppError('BAD_REQUEST')` whose message
 * lists every issue with its path and line; the issues themselves are the error's `cause`.
 */
export function parsePolicyDocument(input: string | unknown): PolicyDocument {
  const result = validatePolicyDocument(input);
  if (result.ok) return result.document;
  throw new AppError('BAD_REQUEST', `invalid policy: ${result.issues.map(describe).join('; ')}`, { cause: result.issues });
}
