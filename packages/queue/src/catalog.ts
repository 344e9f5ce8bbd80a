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

export const webhookJobSchema = z.object({
  /** The `WebhookDelivery` row, which is also the job's id: adding it again while it is known is a no-op. */
  deliveryId: id,
});
export type WebhookJob = z.infer<typeof webhookJobSchema>;

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
  /**
   * One job per webhook delivery (job id = delivery id). The delivery row owns the retry schedule:
   * a failed attempt moves the job back to delayed until the next attempt is due; `attempts` only
   * covers a processor that threw (Postgres unreachable). Finished jobs are removed at once, so a
   * redelivery can add the id again; the worker's sweep adds one for a pending delivery whose job
   * went missing.
   */
  webhooks: {
    name: 'looplane-webhooks',
    schema: webhookJobSchema,
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: true,
    } satisfies JobsOptions,
  },
} as const;

/**
 * The sessions queue of the workers that offer an isolation level (`bwrap` < `podman` < `gvisor` <
 * `microvm`): a run waiting for a level no worker that took it could give is handed here, and only
 * workers whose sandbox gives that level (or a stronger one) consume it. Same payload and options
 * as the sessions queue.
 */
export function isolationQueueName(level: string): string {
  if (!/^[a-z]+$/.test(level)) throw new Error(`not an isolation level: ${level}`);
  return `${QUEUES.sessions.name}-needs-${level}`;
}

export type QueueKey = keyof typeof QUEUES;
export type QueuePayload<K extends QueueKey> = z.infer<(typeof QUEUES)[K]['schema']>;

/**
 * The job id of a session job. One id per (session, wake-up) keeps BullMQ from holding two
 * jobs for the same wake-up; the worker's compare-and-set claim makes duplicates harmless anyway.
 */
export function sessionJobId(job: SessionJob, nonce: string | number): string {
  return `${job.sessionId}-${job.reason}-${nonce}`;
}
