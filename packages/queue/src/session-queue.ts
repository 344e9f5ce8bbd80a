import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, isolationQueueName, sessionJobId, sessionJobSchema, type SessionJob } from './catalog';

/**
 * The producer side of the sessions queue (web/API and worker both enqueue wake-ups). `prefix`
 * namespaces the Redis keys (BullMQ's default `bull`); producers and workers must agree on it.
 * With `isolationLevel`, the queue of the workers that offer that level (`isolationQueueName`).
 */
export function createSessionQueue(connection: ConnectionOptions, options: { prefix?: string; isolationLevel?: string } = {}): Queue<SessionJob> {
  const name = options.isolationLevel ? isolationQueueName(options.isolationLevel) : QUEUES.sessions.name;
  return new Queue<SessionJob>(name, {
    connection,
    defaultJobOptions: QUEUES.sessions.options,
    ...(options.prefix ? { prefix: options.prefix } : {}),
  });
}

export interface EnqueueOptions {
  delayMs?: number;
  priority?: number;
  /**
   * Makes the job id deterministic: while a job with the same (session, reason, nonce) is known to
   * BullMQ, adding it again is a no-op (the reconciler uses this so repeated passes add one job).
   * Default: unique per call.
   */
  nonce?: string;
}

const uniqueNonce = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Enqueues a wake-up for a session; the payload is validated before it reaches Redis. */
export async function enqueueSession(queue: Queue<SessionJob>, job: SessionJob, options: EnqueueOptions = {}): Promise<void> {
  const payload = sessionJobSchema.parse(job);
  await queue.add(payload.reason, payload, {
    jobId: sessionJobId(payload, options.nonce ?? uniqueNonce()),
    ...(options.delayMs ? { delay: options.delayMs } : {}),
    ...(options.priority ? { priority: options.priority } : {}),
  });
}

/**
 * Enqueues many wake-ups in one Redis round trip (BullMQ `addBulk`: one MULTI), each with the job
 * id {@link enqueueSession} would give it. All payloads are validated before any reaches Redis.
 */
export async function enqueueSessions(queue: Queue<SessionJob>, jobs: readonly SessionJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const payloads = jobs.map((job) => sessionJobSchema.parse(job));
  await queue.addBulk(payloads.map((payload) => ({ name: payload.reason, data: payload, opts: { jobId: sessionJobId(payload, uniqueNonce()) } })));
}
