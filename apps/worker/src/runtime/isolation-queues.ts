import { createSessionQueue, enqueueSession, isolationQueueName, type SessionJob } from '@looplane/queue';
import { type Job, type Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface IsolationQueuesOptions {
  redis: Redis;
  prefix: string;
  workerId: string;
  /** Loops for the level queues together (they share the worker's sessions with the main queue). */
  concurrency: number;
  process: (job: Job<SessionJob>, token?: string) => Promise<void>;
  logger: Logger;
}

/**
 * Where a run waiting for an isolation level goes: a call was deferred (`tool.deferred`) because
 * the worker that took the run offers no driver that strong, so the session is handed to that
 * level's queue (`isolationQueueName`), which only workers whose sandbox gives the level consume.
 * Such a worker takes it as soon as it is free, and the call runs there. A level no worker offers
 * keeps its job queued until one starts; the run meanwhile shows waiting for isolation.
 */
export class IsolationQueues {
  private readonly producers = new Map<string, Queue<SessionJob>>();
  private readonly consumers: Worker<SessionJob>[] = [];
  private closed = false;

  constructor(private readonly options: IsolationQueuesOptions) {}

  /**
   * Hands a waiting session to its level's queue. The job id names the wait (level and the log's
   * end), so handing the same wait over again (a retried job, a reconciler pass) adds nothing.
   */
  async forward(job: SessionJob, wait: { level: string; seq: number }): Promise<void> {
    let queue = this.producers.get(wait.level);
    if (!queue) {
      queue = createSessionQueue(this.options.redis, { prefix: this.options.prefix, isolationLevel: wait.level });
      queue.on('error', (error) => this.options.logger.warn({ err: error, level: wait.level }, 'isolation queue producer error'));
      this.producers.set(wait.level, queue);
    }
    await enqueueSession(queue, { ...job, reason: 'resume' }, { nonce: `needs-${wait.level}-${wait.seq}` });
    this.options.logger.info({ runId: job.runId, sessionId: job.sessionId, level: wait.level }, 'run waits for a worker offering its isolation level');
  }

  /** Starts consuming the queues of the levels this worker's sandbox gives (known once its drivers are probed). */
  async consume(levels: readonly string[]): Promise<void> {
    const { redis, prefix, workerId, process, logger } = this.options;
    const started: Worker<SessionJob>[] = [];
    for (const level of levels) {
      if (this.closed) break;
      const worker = new Worker<SessionJob>(isolationQueueName(level), process, {
        connection: redis,
        prefix,
        concurrency: Math.max(1, Math.ceil(this.options.concurrency / Math.max(1, levels.length))),
        autorun: false,
        name: `${workerId}/needs-${level}`,
      });
      worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id, sessionId: job?.data.sessionId, level }, 'session job failed'));
      worker.on('error', (error) => logger.warn({ err: error, level }, 'isolation queue worker error'));
      this.consumers.push(worker);
      started.push(worker);
      void worker.run();
    }
    await Promise.all(started.map((worker) => worker.waitUntilReady()));
    if (started.length > 0) logger.info({ levels }, 'taking runs that wait for these isolation levels');
  }

  /** Stops taking jobs (running ones finish: the runtime's drain covers them), then closes the producers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.consumers.map((worker) => worker.close()));
    await Promise.all([...this.producers.values()].map((queue) => queue.close()));
  }
}
