import { z } from 'zod';
import { jsonObjectSchema } from './json-object';

const id = z.string().min(1);
const count = z.int().nonnegative();

export const REPLAY_MODES = ['stop', 'live'] as const;
export type ReplayMode = (typeof REPLAY_MODES)[number];

/**
 * What `session.forked` carries for a replay branch (`sessions.replay`): the session whose log is
 * the recording, the event the replay starts after, and what it does at the first divergence
 * (`stop`: end with the report; `live`: go on for real). The overrides are in the fork's config.
 */
export const replayMarkerSchema = z.object({
  sourceSessionId: id,
  atEvent: count,
  mode: z.enum(REPLAY_MODES),
  endpointId: z.string().optional(),
  systemPrompt: z.boolean().optional(),
});
export type ReplayMarker = z.infer<typeof replayMarkerSchema>;

/** A tool call as the divergence report shows it: name, arguments, and the seq of its `tool.requested`. */
const reportedCall = z.object({ name: z.string(), args: jsonObjectSchema, seq: count });

/** A turn of the recording whose calls the new model made again: each call's result is served from the log when `served`. */
export const replayMatchedSchema = z.object({
  /** The session's turn (1-based, counting inherited turns). */
  turn: count,
  /** The turn since the replay began (1-based). */
  replayTurn: z.int().positive(),
  /** seq of the recorded `model.responded` in the source session's log. */
  recordedSeq: count,
  calls: z.array(z.object({ callId: id, recordedCallId: id, recordedSeq: count, served: z.boolean() })),
});

export const DIVERGENCE_REASONS = ['no_recorded_turn', 'call_count', 'different_call', 'unservable'] as const;

/**
 * The first turn where the new model did not ask for what the recording did: the report
 * `sessions.replay` promises (turn, recorded call vs new call, seqs on both sides).
 */
export const replayDivergedSchema = z.object({
  turn: count,
  replayTurn: z.int().positive(),
  reason: z.enum(DIVERGENCE_REASONS),
  /** One line for people. */
  detail: z.string(),
  /** The call where the turns first differ (null when the turns differ as a whole). */
  callIndex: count.nullable(),
  mode: z.enum(REPLAY_MODES),
  sourceSessionId: id,
  /** The recorded turn (null: the recording has no such turn). */
  recorded: z.object({ seq: count, calls: z.array(reportedCall) }).nullable(),
  /** The new model's turn in this session (`seq` of its `model.responded`). */
  replayed: z.object({ seq: count, calls: z.array(reportedCall) }),
});
export type ReplayDiverged = z.infer<typeof replayDivergedSchema>;

/** Set on a result served from the recording (no tool ran): the flag and the recorded result event's seq. */
export const replayedResult = {
  replayed: z.literal(true).optional(),
  recordedSeq: count.optional(),
};
