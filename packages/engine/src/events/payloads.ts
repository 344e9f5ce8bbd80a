import { roleSchema, SANDBOX_LEVEL_DRIVERS } from '@looplane/shared';
import { z } from 'zod';
import { runConfigSchema } from '../config/run-config';
import { breakerTripSchema } from './breaker-trip';
import { heldEffectSchema } from './workspace-effect';
import { repositoryContextSchema, workspaceSeededSchema } from './workspace-seeded';
import { jsonObjectSchema } from './json-object';
import { replayDivergedSchema, replayedResult, replayMarkerSchema, replayMatchedSchema } from './replay-schemas';

const id = z.string().min(1);
const count = z.int().nonnegative();
const jsonObject = jsonObjectSchema;
const amount = { tokens: count, costMicros: count };
const usage = z.object({ inputTokens: count, outputTokens: count, estimated: z.boolean() });
const providerError = z.object({
  code: z.enum(['rate_limited', 'server_error', 'bad_request', 'auth', 'not_found', 'timeout', 'connection', 'invalid_response']),
  message: z.string(),
  status: z.int().optional(),
  retryable: z.boolean(),
});
const purpose = z.enum(['model', 'compaction']);
/** Set when model output held text the log cannot store (NUL, an unpaired surrogate), recorded as U+FFFD. */
const sanitized = z.literal(true).optional();

/**
 * The payload schema of every event type at its current version. Adding a field with a default is
 * compatible; changing a shape means a new version plus an upcaster in `event-codec.ts`.
 */
export const payloadSchemas = {
  // Run lifecycle
  'run.started': z.object({
    goal: z.string().min(1),
    config: runConfigSchema,
    command: z.object({ name: z.string(), args: z.record(z.string(), z.string()) }).optional(),
    /** The seeded repository's own instructions (its root `AGENTS.md`), put in the context after the system prompt. */
    repository: repositoryContextSchema.optional(),
  }),
  /** `isolation` (v1 addition): a worker that offers the level a deferred call needs took the run (`tool.deferred`). */
  'run.resumed': z.object({ reason: z.enum(['budget', 'operator', 'isolation']), note: z.string().optional() }),
  /**
   * `resultSeq` (v2): the result is the text of the `model.responded` at that seq of the session's
   * log (its own or an ancestor's), the final answer, and the log does not repeat it here: a stored
   * row has no `result` then (see `storedPayload`); the fold takes it from that answer.
   */
  'run.finished': z.object({
    status: z.enum(['succeeded', 'failed', 'cancelled']),
    result: z.string().optional(),
    resultSeq: count.optional(),
    error: z.string().optional(),
  }),
  /**
   * A branch's first own event. `config`: the branch's run config when the fork changed it (model,
   * prompt). `replay` (v2): the branch replays its parent's log from `atSeq` (`sessions.replay`).
   */
  'session.forked': z.object({ parentSessionId: id, atSeq: count, config: runConfigSchema.optional(), replay: replayMarkerSchema.optional() }),
  // Messages from outside the model: a human's follow-up, or a pinned notice (policy, operator).
  'message.added': z.object({ role: z.enum(['user', 'notice']), text: z.string() }),
  // Model calls
  'model.requested': z.object({
    requestId: id,
    turn: count,
    messages: count,
    tools: z.array(z.string()),
    promptTokens: count,
    promptBytes: count,
    maxOutputTokens: count,
  }),
  'model.delta': z.object({ requestId: id, index: count, text: z.string(), sanitized }),
  /** `truncated`: the answer passed the output cap and was cut; `text` ends with a note that says so. */
  'model.responded': z.object({
    requestId: id,
    text: z.string(),
    finishReason: z.string(),
    usage,
    costMicros: count,
    sanitized,
    truncated: z.literal(true).optional(),
  }),
  /** `usage`/`costMicros`: what the failed call used and is charged for (absent: nothing to charge). */
  'model.failed': z.object({ requestId: id, error: providerError, usage: usage.optional(), costMicros: count.optional(), sanitized }),
  // Tool calls
  'tool.requested': z.object({
    callId: id,
    requestId: id,
    name: z.string(),
    args: jsonObject,
    /** Set when the model's argument text was not a JSON object; `args` is then empty. */
    argsError: z.string().optional(),
    rawArgs: z.string().optional(),
    sanitized,
  }),
  'tool.rejected': z.object({ callId: id, reason: z.string() }),
  'tools.loaded': z.object({ callId: id, loaded: z.array(z.string()), unknown: z.array(z.string()) }),
  /**
   * A skill's instructions entered the context (a pinned notice, so compaction keeps them): loaded
   * by the model's `load_skill` call `callId`, or before the first turn (no `callId`, a slash
   * command's skill). The content is the one resolved at load time, so replays, forks and resumes
   * read it from here. `files`: workspace paths its files were written to (`commit`: the files
   * after that write); a repository's skill names the files it already had.
   */
  'skill.loaded': z.object({
    callId: id.optional(),
    name: z.string().min(1),
    source: z.enum(['team', 'repository']),
    version: z.int().positive(),
    description: z.string(),
    instructions: z.string(),
    files: z.array(z.string()),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40,64}$/)
      .optional(),
    ...replayedResult,
  }),
  'policy.decided': z.object({
    callId: id,
    decision: z.enum(['allow', 'deny', 'require_approval']),
    reason: z.string().optional(),
    role: roleSchema.optional(),
    ruleId: z.string().optional(),
    /** The isolation level the deciding rule requires (its `minimumDriver`): the call runs on that driver or a stronger one. */
    isolation: z.enum(SANDBOX_LEVEL_DRIVERS).optional(),
  }),
  'approval.requested': z.object({
    callId: id,
    /**
     * tool: a call before it runs; interrupted: re-run a lost call; effect: keep what a call that ran
     * did; breaker: resume a session a breaker paused before this call (rejecting cancels the run).
     */
    kind: z.enum(['tool', 'interrupted', 'effect', 'breaker']),
    tool: z.string(),
    args: jsonObject,
    role: roleSchema,
    reason: z.string().optional(),
    risk: z.enum(['low', 'medium', 'high']).optional(),
    ruleId: z.string().optional(),
    /** kind effect: the held result the approver decides on. */
    held: heldEffectSchema.optional(),
    /** kind breaker: what tripped, with its numbers. */
    breaker: breakerTripSchema.optional(),
  }),
  'approval.decided': z.object({
    callId: id,
    approved: z.boolean(),
    by: z.string().optional(),
    comment: z.string().optional(),
    editedArgs: jsonObject.optional(),
  }),
  'tool.started': z.object({ callId: id, name: z.string(), args: jsonObject, attempt: z.int().positive() }),
  'tool.finished': z.object({
    callId: id,
    ok: z.boolean(),
    output: z.string(),
    truncated: z.boolean(),
    /** workspace commit after a mutating call; optional, so v1 logs without it stay readable */
    commit: z
      .string()
      .regex(/^[0-9a-f]{40,64}$/)
      .optional(),
    exitCode: z.int().optional(),
    /** v2: served from a replay's recording (no tool ran); `recordedSeq` is the recorded result's seq. */
    ...replayedResult,
  }),
  'tool.interrupted': z.object({ callId: id, reason: z.string() }),
  /**
   * The worker that started a call cannot give it the isolation `level` it needs, and the run's
   * template says `whenIsolationUnavailable: wait`: nothing of the call ran. The call goes back to
   * allowed (or approved), the run waits for a worker that offers the level (`run.resumed` with
   * reason `isolation`), and it then runs there from the start.
   */
  'tool.deferred': z.object({ callId: id, level: z.enum(SANDBOX_LEVEL_DRIVERS), reason: z.string(), approved: z.boolean() }),
  /**
   * The policy's effect rules did not let a call's result stand (recorded instead of its
   * `tool.finished`): the workspace is back at `held.baseCommit`. deny: the call then finishes
   * failed; require_approval: an `approval.requested` (kind effect) follows, and approving applies
   * exactly `held.commit` with this output.
   */
  'effect.decided': z.object({
    callId: id,
    decision: z.enum(['deny', 'require_approval']),
    reason: z.string(),
    ruleId: z.string().optional(),
    held: heldEffectSchema,
    ok: z.boolean(),
    output: z.string(),
    truncated: z.boolean(),
    exitCode: z.int().optional(),
  }),
  /** A decision of the run's egress proxy during a call (recorded before its `tool.finished`); header names only. */
  'egress.decided': z.object({
    callId: id,
    kind: z.enum(['connect', 'http']),
    method: z.string(),
    host: z.string(),
    port: z.int(),
    allowed: z.boolean(),
    reason: z.string(),
    injectedHeaders: z.array(z.string()).default([]),
  }),
  /**
   * A breaker tripped before `callId` ran (the policy allowed it): an `approval.requested` of kind
   * breaker follows, and the breaker's window restarts here.
   */
  'breaker.tripped': breakerTripSchema.omit({ name: true }).extend({ callId: id, breaker: breakerTripSchema.shape.name, reason: z.string().min(1) }),
  // Budget (mirrors the ledger; the port is the authority)
  'budget.reserved': z.object({ requestId: id, purpose, ...amount }),
  'budget.charged': z.object({ requestId: id, ...amount }),
  'budget.released': z.object({ requestId: id, ...amount }),
  'budget.exceeded': z.object({ requestId: id, purpose, ...amount, reason: z.string(), onExceed: z.enum(['wait', 'fail']) }),
  // Context
  'compaction.applied': z.object({
    throughItem: count,
    removedItems: count,
    summary: z.string(),
    tokensBefore: count,
    tokensAfter: count,
    usage: usage.optional(),
    costMicros: count,
    sanitized,
  }),
  // Swarm
  'delegation.sent': z.object({ callId: id, to: z.string(), goal: z.string() }),
  /** v2: `replayed` when a replay served the recorded result (no child ran). */
  'delegation.returned': z.object({ callId: id, ok: z.boolean(), result: z.string(), ...replayedResult }),
  // Replay (`sessions.replay`): each turn compared with the recording, until the first divergence.
  'replay.matched': replayMatchedSchema,
  'replay.diverged': replayDivergedSchema,
  'memory.written': z.object({ key: z.string().min(1), value: z.json(), version: z.int().positive() }),
  /**
   * A person put the workspace back as it was at event `atEvent` of the session's log
   * (`sessions.restore`, request `requestId`, by user `requestedBy`): all of it, or only `paths`
   * (each file or directory as it was then; one that did not exist then is gone). `commit` is the
   * commit made of it: the session's files from here on, as a mutating call's `tool.finished`.
   */
  'workspace.seeded': workspaceSeededSchema,
  'workspace.restored': z.object({
    requestId: id,
    atEvent: z.int().positive(),
    commit: z.string().regex(/^[0-9a-f]{40,64}$/),
    paths: z.array(z.string().min(1)).min(1).optional(),
    requestedBy: id,
  }),
} as const;
