import { z } from 'zod';

/** Redis pub/sub channel names of the live bus. Payloads carry ids, never event bodies or secrets. */
export const channels = {
  /** Every committed event of a run: `{ eventNo }` — subscribers read the event from Postgres. */
  run: (runId: string) => `looplane:run:${runId}`,
  /** Team-wide activity for the dashboard (run status changes, approval counts, shadow policy disagreements). */
  team: (teamId: string) => `looplane:team:${teamId}`,
  /** Cancel requests, to every worker: the one holding the session aborts it within a second. */
  cancel: 'looplane:cancel',
  /** A new inbox message for a session (the holder picks it up at the next step boundary). */
  inbox: (sessionId: string) => `looplane:inbox:${sessionId}`,
} as const;

export const runEventMessageSchema = z.object({
  runId: z.string(),
  sessionId: z.string(),
  eventNo: z.number().int().nonnegative(),
  type: z.string(),
});
export type RunEventMessage = z.infer<typeof runEventMessageSchema>;

export const teamActivitySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('run.status'),
    runId: z.string(),
    status: z.enum(['queued', 'running', 'waiting', 'paused', 'succeeded', 'failed', 'cancelled']),
    waitReason: z.string().nullable().optional(),
  }),
  z.object({ kind: z.literal('approvals.count'), pending: z.number().int().nonnegative() }),
  // A live call the team's shadow policy decided otherwise than the active one (the Policies page refetches its count).
  z.object({ kind: z.literal('policy.shadow_disagreed'), runId: z.string(), tool: z.string() }),
]);
export type TeamActivity = z.infer<typeof teamActivitySchema>;

export const cancelMessageSchema = z.object({ runId: z.string(), sessionId: z.string().optional() });
export type CancelMessage = z.infer<typeof cancelMessageSchema>;
