import { z } from 'zod';
import { validatePolicyDocument, type PolicyDocument } from '@looplane/policy';
import { idSchema } from '../schemas';

/** Policies are written by people; 64 KiB of JSON or YAML is far more than any real one needs. */
const MAX_POLICY_TEXT = 65_536;

/** A version number; 0 names the built-in default policy a team starts with. */
const versionNumber = z.int().min(0).max(1_000_000);

const documentInput = z.union([z.string().max(MAX_POLICY_TEXT), z.record(z.string(), z.unknown())]);

/**
 * A policy document as JSON or YAML text or as an object, validated by the policy package inside
 * the input schema, so a bad document is an ordinary 400 whose message names the path (and line)
 * of each problem, and nothing runs with it.
 */
const policyDocumentInput = documentInput.transform((value, ctx): PolicyDocument => {
  const result = validatePolicyDocument(value);
  if (result.ok) return result.document;
  for (const issue of result.issues.slice(0, 20)) {
    const where = issue.line === undefined ? '' : ` (line ${issue.line}, column ${issue.column ?? 1})`;
    ctx.addIssue({ code: 'custom', path: issue.path ? issue.path.split('.') : [], message: `${issue.message}${where}` });
  }
  return z.NEVER;
});

export const savePolicyInput = z.object({
  document: policyDocumentInput,
  comment: z.string().trim().max(500).default(''),
});

export const validatePolicyInput = z.object({ document: z.string().max(MAX_POLICY_TEXT) });

const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_files', 'search_files']);

/**
 * A tool call to try. Arguments are checked for the fields the policy reads (a shell call needs
 * `command` or `argv`, a file tool `path`, `http_request` a `url`) so a typo is an error rather
 * than a silent "unparsable" decision.
 */
export const simulatePolicyInput = z
  .object({
    tool: z.string().trim().min(1).max(200),
    args: z.record(z.string().max(200), z.unknown()),
    /** A draft to try instead of the active version (the editor's text, not yet saved). */
    document: policyDocumentInput.optional(),
  })
  .superRefine(({ tool, args }, ctx) => {
    const need = (key: string, ok: boolean, what: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: ['args', key], message: `a ${tool} call needs ${what}` });
    };
    if (tool === 'shell') {
      const argv = args.argv;
      const hasArgv = Array.isArray(argv) && argv.length > 0 && argv.every((a) => typeof a === 'string');
      need(
        'command',
        (typeof args.command === 'string' && args.command.length <= 20_000) || hasArgv,
        'a command string (at most 20000 characters) or an argv list',
      );
    } else if (FILE_TOOLS.has(tool) && tool !== 'list_files' && tool !== 'search_files') {
      need('path', typeof args.path === 'string' && args.path.length > 0, 'a path string');
    } else if (tool === 'http_request') {
      need('url', typeof args.url === 'string' && args.url.length > 0, 'a url string');
    }
  });

export const diffPolicyInput = z.object({ from: versionNumber, to: versionNumber });

/** An instant: a Date (superjson) or an ISO-8601 string with its offset (plain JSON, the backtest stream). */
const instant = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .transform((value) => new Date(value))
  .refine((d) => !Number.isNaN(d.getTime()), 'must be a valid date');

/** Examples kept per cell of a backtest's matrix. */
const MAX_BACKTEST_EXAMPLES = 50;

/**
 * A backtest: the candidate document (as `save` takes it: a syntax or schema error is refused
 * with the validator's message, nothing read), and the window of recorded calls.
 */
export const backtestPolicyInput = z
  .object({
    document: policyDocumentInput,
    since: instant,
    /** Default: now. */
    until: instant.optional(),
    limit: z.int().min(1).max(MAX_BACKTEST_EXAMPLES).default(5),
  })
  // Guarded: zod runs this refinement even when a field already failed (its value is then raw input).
  .refine((input) => !(input.until instanceof Date && input.since instanceof Date) || input.until.getTime() > input.since.getTime(), {
    path: ['until'],
    message: 'until must be later than since',
  });

/** `policies.setShadow`: a saved version to decide every live call under as well (0: the built-in default), or null to clear it. */
export const setShadowInput = z.object({ version: versionNumber.nullable() });

/** `policies.shadowDisagreements`: newest first, `cursor` = the last id of the page before. */
export const shadowDisagreementsInput = z.object({
  cursor: idSchema.optional(),
  limit: z.int().min(1).max(100).default(20),
});
