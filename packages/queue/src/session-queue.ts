import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUES, sessionJobId, sessionJobSchema, type SessionJob } from './catalog';

/** The producer side of the sessions queue (web/API and worker both enqueue wake-ups). */
export function createSessionQueue(connection: ConnectionOptions): Queue<SessionJob> {
  return new Queue<SessionJob>(QUEUES.sessions.name, { connection, defaultJobOptions: QUEUES.sessions.options });
}

/** Enqueues a wake-up for a session; the payload is validated before it reaches Redis. */
export async function enqueueSession(queue: Queue<SessionJob>, job: SessionJob, options: { delayMs?: number; priority?: number } = {}): Promise<void> {
  const payload = sessionJobSchema.parse(job);
  await queue.add(payload.reason, payload, {
    jobId: sessionJobId(payload, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`),
    ...(options.delayMs ? { delay: options.delayMs } : {}),
    ...(options.priority ? { priority: options.priority } : {}),
  });
}
