import { z } from 'zod';
import { idSchema } from '../schemas';

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

export const resumeSessionInput = z.object({ sessionId: idSchema, message: instructionSchema });
export type ResumeSessionInput = z.infer<typeof resumeSessionInput>;

export const diffSessionsInput = z.object({ a: idSchema, b: idSchema });

export const promoteSessionInput = z.object({ sessionId: idSchema });
