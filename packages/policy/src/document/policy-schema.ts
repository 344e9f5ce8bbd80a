import { SANDBOX_LEVEL_DRIVERS } from '@looplane/shared';
import { z } from 'zod';
import { workspaceSectionSchema } from './workspace-sources';
import { breakersSchema } from './breakers-schema';
import { effectMatchSchema } from './effect-schema';
import { conditionProblems } from './rule-checks';

/** Outcomes a rule (or the document's default) can give a tool call. */
export const OUTCOMES = ['allow', 'deny', 'require_approval'] as const;
export type Outcome = (typeof OUTCOMES)[number];
/** How much harm a call can do; shown with an approval. */
export const RISKS = ['low', 'medium', 'high', 'critical'] as const;
export type Risk = (typeof RISKS)[number];
/** Roles that may decide an approval. */
export const APPROVER_ROLES = ['approver', 'admin'] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];

const patternList = z.array(z.string().min(1).max(500)).min(1).max(500);

/**
 * What a rule matches. `tool` is an exact name or a glob (`mcp:github:*`); every other field is a
 * condition, and all conditions must hold. Conditions belong to a kind of tool:
 * - shell: `commands` (every command in the line is in the list; an entry may name a subcommand,
 *   `git status`), `anyCommand` (some command is in the list), `destructive`, `dynamic`
 *   (unclassifiable: the command name or code is not static), `unparsable`, `runsCode` (the line
 *   runs code the analysis cannot read: a script, a Makefile, npm scripts, git's config, ...).
 * - file tools: `paths` (globs relative to the workspace; `!` excludes; a path outside the
 *   workspace never matches).
 * - http_request: `hosts` (host or host:port, `*.example.com` for subdomains), `methods`, `egress`
 *   (the URL's host is in the document's egress allowlist), and `paths`: globs over the URL path
 *   (`/api/v1/issues/**`, `*` is one segment; no query; dot segments resolved, unreserved escapes
 *   and `%2F` decoded). The egress proxy decides every request from the sandbox by these rules
 *   too (`decideRequest`).
 * - any tool: `args` (top-level string arguments matched by glob).
 * - mutating tools (shell, write_file, edit_file): `effect`, what the call did to the workspace.
 *   A rule with `effect` is an effect rule: it is tried after the call ran, on its result, and
 *   never before (see `evaluate-effect.ts`).
 *
 * An `allow` rule never matches a shell line that is destructive, dynamic, unparsable or runs code
 * unless it says so explicitly (`destructive: true`, `runsCode: true`, ...): what the pre-check
 * cannot vouch for is never allowed by accident.
 */
export const ruleMatchSchema = z.strictObject({
  tool: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(100)]),
  commands: patternList.optional(),
  anyCommand: patternList.optional(),
  destructive: z.boolean().optional(),
  dynamic: z.boolean().optional(),
  unparsable: z.boolean().optional(),
  runsCode: z.boolean().optional(),
  paths: patternList.optional(),
  hosts: patternList.optional(),
  methods: z
    .array(z.string().regex(/^[A-Za-z]+$/, 'an HTTP method is letters only'))
    .min(1)
    .optional(),
  egress: z.boolean().optional(),
  args: z.record(z.string().min(1), z.union([z.string(), z.array(z.string()).min(1)])).optional(),
  /** Decided on the call's result, not its arguments: see `effect-schema.ts`. A rule with `effect` applies only then. */
  effect: effectMatchSchema.optional(),
});
/** A rule's `match`, parsed. */
export type RuleMatch = z.output<typeof ruleMatchSchema>;

/** One rule. Rules are tried in order and the first that matches decides. */
export const ruleSchema = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a rule id is 1-100 letters, digits, ".", "_" or "-"'),
    description: z.string().max(2000).optional(),
    match: ruleMatchSchema,
    outcome: z.enum(OUTCOMES),
    /** Shown to the model on deny, and to the approver on require_approval. */
    reason: z.string().max(2000).optional(),
    approverRole: z.enum(APPROVER_ROLES).optional(),
    risk: z.enum(RISKS).optional(),
    /**
     * The isolation the calls this rule decides need (at least the document's
     * `sandbox.minimumDriver`): e.g. shell lines that run code in `gvisor`. A worker runs them on a
     * driver at that level or above, or refuses them; never weaker.
     */
    minimumDriver: z.enum(SANDBOX_LEVEL_DRIVERS).optional(),
  })
  .superRefine((rule, ctx) => {
    for (const problem of conditionProblems(rule.match)) ctx.addIssue({ code: 'custom', path: ['match', problem.field], message: problem.message });
    if (rule.minimumDriver && rule.outcome === 'deny')
      ctx.addIssue({
        code: 'custom',
        path: ['minimumDriver'],
        message: 'minimumDriver applies to calls a rule lets run (allow or require_approval), not to deny',
      });
    if (rule.minimumDriver && rule.match.effect)
      ctx.addIssue({
        code: 'custom',
        path: ['minimumDriver'],
        message: "an effect rule is decided after the call ran, so it cannot choose the call's sandbox",
      });
    if (rule.approverRole && rule.outcome !== 'require_approval') {
      ctx.addIssue({ code: 'custom', path: ['approverRole'], message: 'approverRole applies only to outcome require_approval' });
    }
  });
/** A rule, parsed. */
export type Rule = z.output<typeof ruleSchema>;

const hostEntry = z.string().regex(/^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/, 'a host is "name", "name:port" or "*.domain[:port]"');

/** Network egress from the sandbox: hosts it may reach, and credentials the proxy injects for them. */
const egressSchema = z.strictObject({
  allow: z.array(hostEntry).max(500).default([]),
  credentials: z
    .array(
      z.strictObject({
        host: hostEntry,
        header: z.string().regex(/^[A-Za-z0-9-]+$/, 'a header name is letters, digits and "-"'),
        /** Names a secret the worker holds; the secret itself never appears in a policy. */
        secretRef: z.string().min(1).max(200),
        /**
         * Also inject it into plain `http://` requests, where anyone on the path can read it. By
         * default a credential goes only over TLS the proxy originates to the named host.
         */
        insecure: z.boolean().optional(),
      }),
    )
    .max(100)
    .default([]),
});

/** Mirrors the sandbox's limit names (`@looplane/sandbox` limits.ts), which parse these values again before use. */
const sandboxLimitsSchema = z.strictObject({
  wallTimeMs: z.int().positive().optional(),
  cpus: z.number().positive().optional(),
  memoryBytes: z.int().positive().optional(),
  pids: z.int().positive().optional(),
  outputBytes: z.int().positive().optional(),
  workspaceBytes: z.int().positive().optional(),
  workspaceFiles: z.int().positive().optional(),
  tmpBytes: z.int().positive().optional(),
});

/** Drivers a policy may require, weakest first (the isolation scale's real levels, `@looplane/shared`). */
export const SANDBOX_DRIVERS = SANDBOX_LEVEL_DRIVERS;

const approvalsSchema = z
  .strictObject({
    /** The run's creator may not approve its own run's calls. */
    fourEyes: z.boolean().default(false),
    expiresAfterMinutes: z
      .int()
      .min(1)
      .max(60 * 24 * 30)
      .default(24 * 60),
    expiryOutcome: z.enum(['reject', 'approve', 'fail']).default('reject'),
    escalateAfterMinutes: z.int().min(1).optional(),
    escalateToRole: z.enum(APPROVER_ROLES).optional(),
  })
  .superRefine((a, ctx) => {
    if ((a.escalateAfterMinutes === undefined) !== (a.escalateToRole === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['escalateToRole'], message: 'escalateAfterMinutes and escalateToRole go together' });
    }
    if (a.escalateAfterMinutes !== undefined && a.escalateAfterMinutes >= a.expiresAfterMinutes) {
      ctx.addIssue({ code: 'custom', path: ['escalateAfterMinutes'], message: 'escalation must come before expiry' });
    }
  });

/**
 * A team's policy, version 1 of the format. Sections left out take their defaults: default deny,
 * no egress, bwrap as the minimum sandbox, and every one of the team's model endpoints (endpoints
 * are already an admin-curated list; `models.allowedEndpoints` narrows it, `[]` allows none).
 */
export const policyDocumentSchema = z
  .strictObject({
    version: z.literal(1),
    name: z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    /** What a call that no rule matches gets. */
    default: z.enum(OUTCOMES).default('deny'),
    rules: z.array(ruleSchema).max(1000).default([]),
    egress: egressSchema.prefault({}),
    models: z.strictObject({ allowedEndpoints: z.array(z.string().min(1).max(200)).max(500).default(['*']) }).prefault({}),
    sandbox: z.strictObject({ minimumDriver: z.enum(SANDBOX_DRIVERS).default('bwrap'), limits: sandboxLimitsSchema.default({}) }).prefault({}),
    approvals: approvalsSchema.prefault({}),
    /** Pause a runaway session for an approver (see `breakers-schema.ts`). */
    breakers: breakersSchema,
    /** The repositories runs may start from and deliver to (see `workspace-sources.ts`). */
    workspace: workspaceSectionSchema.prefault({}),
  })
  .superRefine((doc, ctx) => {
    const seen = new Map<string, number>();
    doc.rules.forEach((rule, index) => {
      const first = seen.get(rule.id);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['rules', index, 'id'], message: `rule id "${rule.id}" is already used by rules.${first}` });
      else seen.set(rule.id, index);
    });
  });

/** A parsed, defaulted policy document. */
export type PolicyDocument = z.output<typeof policyDocumentSchema>;
/** What an editor or the API may hand in before defaults are applied. */
export type PolicyDocumentInput = z.input<typeof policyDocumentSchema>;
