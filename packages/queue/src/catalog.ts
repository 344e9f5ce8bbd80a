import type { JobsOptions } from 'bullmq';
import { z } from 'zod';

/**
 * The queue catalog: every queue's name, payload schema and job options in one place. Postgres
 * owns the truth; a job only says "look at this session now". Processors parse their payload.
 */
const id = z.string().min(1).max(64);

export const sessionJobSchema = z.object({
  runId: id,
  sessionId: id,
  /** Why the session needs a worker: first start, a decision/raise/child result, the reconciler, an inbox message, a cancel. */
  reason: z.enum(['start', 'resume', 'reconcile', 'message', 'cancel']),
});
export type SessionJob = z.infer<typeof sessionJobSchema>;

export const QUEUES = {
  sessions: {
    name: 'looplane-sessions',
    schema: sessionJobSchema,
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    } satisfies JobsOptions,
  },
} as const;

export type QueueKey = keyof typeof QUEUES;
export type QueuePayload<K extends QueueKey> = z.infer<(typeof QUEUES)[K]['schema']>;

/**
 * The job id of a session job. One id per (session, wake-up) keeps BullMQ from holding two
 * jobs for the same wake-up; the worker's compare-and-set claim makes duplicates harmless anyway.
 */
export function sessionJobId(job: SessionJob, nonce: string | number): string {
  return `${job.sessionId}-${job.reason}-${nonce}`;
}
