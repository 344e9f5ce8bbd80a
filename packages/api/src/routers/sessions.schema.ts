import { z } from 'zod';
import { workspacePathSchema } from '@looplane/workspaces';
import { idSchema } from '../schemas';
import { REPLAY_MODES } from '@looplane/engine';

/** A message to a branch (a fork's extra instruction, a resume's new one). */
const instructionSchema = z.string().trim().min(1).max(20_000);

export const sessionTreeInput = z.object({ runId: idSchema });

/** A branch's events (through its ancestry) after seq `after`, oldest first. */
export const sessionEventsInput = z.object({
  sessionId: idSchema,
  after: z.int().min(0).max(2_147_483_647).default(0),
  limit: z.int().min(1).max(2000).default(1000),
});

/**
 * `atEvent` is the event's `seq` in the forked session's log, as the run page and `looplane fork`
 * show it (`#seq`): 1-based, and for a branch it counts the inherited events too (a branch forked
 * at 10 numbers its own events from 11). It is not the run-wide event number (`eventNo`).
 */
export const forkSessionInput = z.object({
  sessionId: idSchema,
  atEvent: z.int().min(1).max(2_147_483_647),
  /** A user message the branch starts with, after the inherited conversation. */
  message: instructionSchema.optional(),
  agentOverrides: z
    .strictObject({
      /** Another model endpoint of the team for this branch. */
      endpointId: idSchema.optional(),
      /** Replaces the system prompt from the fork point on. */
      systemPrompt: z.string().max(20_000).optional(),
    })
    .optional(),
});
export type ForkSessionInput = z.infer<typeof forkSessionInput>;

/**
 * `sessions.replay`: a replay branch of the session from event `atEvent` (its seq, as for
 * `sessions.fork`; default: the session's start, just before its first model call) on another
 * endpoint of the team or with another system prompt. `mode` says what happens at the first
 * divergence from the recording: `stop` ends the branch with the report, `live` goes on for real.
 */
export const replaySessionInput = z.object({
  sessionId: idSchema,
  atEvent: z.int().min(1).max(2_147_483_647).optional(),
  endpointId: idSchema.optional(),
  systemPrompt: z.string().max(20_000).optional(),
  mode: z.enum(REPLAY_MODES),
});
export type ReplaySessionInput = z.infer<typeof replaySessionInput>;

export const resumeSessionInput = z.object({ sessionId: idSchema, message: instructionSchema });
export type ResumeSessionInput = z.infer<typeof resumeSessionInput>;

export const diffSessionsInput = z.object({ a: idSchema, b: idSchema });

export const promoteSessionInput = z.object({ sessionId: idSchema });

/** The largest event seq any session can have (Postgres int). */
const MAX_SEQ = 2_147_483_647;

/**
 * A directory or one file of a branch's workspace at event `atEvent` (its seq, as for
 * `sessions.fork`; default: the latest committed event). `path` is relative to the workspace root
 * (default: the root); absolute paths, `..`, NUL and `.git` are refused by `workspacePathSchema`.
 */
export const sessionFilesInput = z.object({
  sessionId: idSchema,
  atEvent: z
    .int({ error: 'must be a whole number (an event seq of the session)' })
    .min(1, 'must be at least 1 (events are numbered from 1)')
    .max(MAX_SEQ, `must be at most ${MAX_SEQ}`)
    .optional(),
  path: workspacePathSchema.optional(),
});
export type SessionFilesInput = z.infer<typeof sessionFilesInput>;

/** `?atEvent=` of the workspace download: absent (the latest event) or a whole number of range. */
export const archiveAtEventParam = z
  .string()
  .regex(/^[0-9]{1,10}$/, `must be a whole number between 1 and ${MAX_SEQ}`)
  .transform(Number)
  .pipe(z.int().min(1, `must be a whole number between 1 and ${MAX_SEQ}`).max(MAX_SEQ, `must be a whole number between 1 and ${MAX_SEQ}`))
  .optional();

/** A path a restore names: any workspace path but the root (leaving `paths` out restores everything). */
const restorePathSchema = workspacePathSchema.refine((path) => path !== '', 'names the workspace root; leave paths out to restore the whole workspace');

/** The most paths one restore names. */
const MAX_RESTORE_PATHS = 1000;

/**
 * `sessions.restore`: puts a branch's files back as they were at event `atEvent` (its seq, as for
 * `sessions.fork`): the whole workspace, or only `paths` (files or directories, relative to the
 * workspace root, each as it was then; one that did not exist then is removed).
 */
export const restoreSessionInput = z.object({
  sessionId: idSchema,
  atEvent: z
    .int({ error: 'must be a whole number (an event seq of the session)' })
    .min(1, 'must be at least 1 (events are numbered from 1)')
    .max(MAX_SEQ, `must be at most ${MAX_SEQ}`),
  paths: z
    .array(restorePathSchema)
    .min(1, 'must name at least one path; leave it out to restore the whole workspace')
    .max(MAX_RESTORE_PATHS, `must name at most ${MAX_RESTORE_PATHS} paths`)
    .optional(),
});
export type RestoreSessionInput = z.infer<typeof restoreSessionInput>;

/** `sessions.changes`: the tool calls of a branch that changed files, oldest first. */
export const sessionChangesInput = z.object({ sessionId: idSchema });

/** `sessions.callDiff`: what one call changed; `atEvent` is the seq of its `tool.finished`. */
export const callDiffInput = z.object({
  sessionId: idSchema,
  atEvent: z
    .int({ error: 'must be a whole number (the seq of a tool.finished event)' })
    .min(1, 'must be at least 1 (events are numbered from 1)')
    .max(MAX_SEQ, `must be at most ${MAX_SEQ}`),
});

/**
 * `sessions.patch`: what a branch changed as a `git format-patch` series, from its seeded files
 * (default) or from its files at event `base` (its seq, as for `sessions.fork`), to its latest.
 */
export const sessionPatchInput = z.object({
  sessionId: idSchema,
  base: z
    .int({ error: 'must be a whole number (an event seq of the session)' })
    .min(1, 'must be at least 1 (events are numbered from 1)')
    .max(MAX_SEQ, `must be at most ${MAX_SEQ}`)
    .optional(),
  /** The whole series however long (the REST download); default: cut at 5 MB, with `truncated`. */
  whole: z.boolean().optional(),
});
