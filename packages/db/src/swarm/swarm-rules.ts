import { z } from 'zod';

/** Bounds that keep every number well inside Postgres and JavaScript integer ranges. */
const MAX_TOKENS = 10_000_000_000;
const MAX_COST_MICROS = 100_000_000_000;
const MAX_CALLS = 1_000_000;
/** A crossing carries at most 1 MiB each way: the data rule may only make it smaller. */
export const MAX_CROSSING_BYTES = 1_048_576;
/** Redaction patterns are bounded so a rule cannot make a crossing slow to filter. */
const MAX_PATTERNS = 20;
const MAX_PATTERN_LENGTH = 200;

const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*}]|\|)(?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d+,\d*\})/;

/**
 * A redaction pattern: a JavaScript regular expression (applied globally), bounded in length and
 * refused when it does not compile or matches the empty string (it would redact between every
 * character).
 */
const redactPatternSchema = z
  .string()
  .min(1)
  .max(MAX_PATTERN_LENGTH)
  .superRefine((pattern, ctx) => {
    let re: RegExp;
    try {
      re = new RegExp(pattern, 'gu');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `redaction pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}` });
      return;
    }
    if (re.test('')) ctx.addIssue({ code: 'custom', message: `redaction pattern ${JSON.stringify(pattern)} matches the empty string` });
    // A quantified group that itself repeats ((a+)+, (x*)*, (a|aa)+…) can backtrack for ever on a
    // crafted text; the worker applies patterns to everything that crosses, so they are refused.
    if (NESTED_QUANTIFIER.test(pattern))
      ctx.addIssue({ code: 'custom', message: `redaction pattern ${JSON.stringify(pattern)} repeats a repeated group; write it without nested quantifiers` });
  });

/** An edge's budget: what the delegated subtree may spend over the whole run. Omitted = unlimited. */
export const edgeBudgetSchema = z.strictObject({
  tokens: z.int().min(1).max(MAX_TOKENS).optional(),
  costMicros: z.int().min(1).max(MAX_COST_MICROS).optional(),
  /** Model calls, tool calls and delegations made over this edge, together. */
  calls: z.int().min(1).max(MAX_CALLS).optional(),
  /** Delegations over this edge running at once (fan-out). */
  maxConcurrent: z.int().min(1).max(1000).optional(),
});
export type EdgeBudget = z.infer<typeof edgeBudgetSchema>;

/**
 * When a delegation over the edge needs a person first: never, always, or when the edge's cost
 * budget (what the delegated subtree may spend) is above `costMicros` or unlimited.
 */
export const approvalRuleSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('never') }),
  z.strictObject({ mode: z.literal('always') }),
  z.strictObject({ mode: z.literal('aboveCost'), costMicros: z.int().min(0).max(MAX_COST_MICROS) }),
]);
export type ApprovalRule = z.infer<typeof approvalRuleSchema>;

/** What may cross: bytes in (the goal sent), bytes out (the result returned), redactions applied to both. */
export const dataRuleSchema = z.strictObject({
  maxBytesIn: z.int().min(1).max(MAX_CROSSING_BYTES).optional(),
  maxBytesOut: z.int().min(1).max(MAX_CROSSING_BYTES).optional(),
  redact: z.array(redactPatternSchema).max(MAX_PATTERNS).default([]),
});
export type DataRule = z.infer<typeof dataRuleSchema>;

/** Node keys name nodes in prompts and tool specs: short, lowercase. */
export const nodeKeySchema = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'node keys are 1-40 lowercase letters, digits, _ or -, starting with a letter');

/** Memory key prefixes a node may read or write (`""` = every key). */
export const memoryPrefixesSchema = z
  .array(
    z
      .string()
      .max(100)
      .regex(/^[A-Za-z0-9_./:-]*$/, 'prefixes are letters, digits and _ . / : -'),
  )
  .max(20);
