import { FlushBatcher, createDbOnPool, type PgPool } from '@looplane/db';
import { RunStartedEvents, type Clock } from '@looplane/engine';
import { LiveBus, QUEUES, createSessionQueue, enqueueSession, type SessionJob } from '@looplane/queue';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ModelFactory } from '../ports/model-factory';
import { PolicyAudit } from '../ports/policy-audit';
import type { AuditTails } from '@looplane/db';
import { ShadowDisagreements } from '../ports/shadow-disagreements';
import { TeamPolicies } from '../ports/team-policy';
import type { ToolRegistry } from '../tools/tool-registry';
import { ActiveSessions } from './active-sessions';
import { AdmissionBatcher } from './admission-batcher';
import { ApprovalGate } from './approval-gate';
import { ApprovalSweeper } from './approval-sweeper';
import { LeaseKeeper } from './lease-keeper';
import { LiveEvents } from './live-events';
import { Reconciler } from './reconciler';
import { SessionJobs } from './session-jobs';
import { installSwarm } from '../swarm/swarm-install';
import { IsolationQueues } from './isolation-queues';

export interface RuntimeOptions {
  pool: PgPool;
  /** BullMQ's connection (the worker duplicates it for its blocking reads). */
  redis: Redis;
  /** Live bus connections: publishes must fail fast while Redis is down, so not the queue's. */
  publisher: Redis;
  subscriber: Redis;
  queuePrefix: string;
  /** Lease owner: unique per process. */
  workerId: string;
  concurrency: number;
  leaseTtlMs: number;
  reconcileIntervalMs: number;
  /** A session never claimed (or waiting on a cancel) this long gets a job from the reconciler. */
  reconcileIdleMs?: number;
  /** How often pending approvals are checked for escalation and expiry (default 15 s). */
  approvalSweepIntervalMs?: number;
  /** On shutdown, loops get this long to reach a step boundary before in-flight calls are aborted. */
  drainMs: number;
  tools: ToolRegistry;
  models: ModelFactory;
  logger: Logger;
  clock?: Clock;
  /**
   * The audit chain tails this process last wrote, shared by every writer of the process (the
   * sandbox's effect decisions too): a writer whose view of a team's tail is current chains its
   * rows without a read, and a session's flush carries its decision's row (§6 of ARCHITECTURE.md).
   */
  auditTails?: AuditTails;
}

export interface Runtime {
  /** Enqueues a wake-up on this runtime's queue. */
  enqueue(job: SessionJob, nonce?: string): Promise<void>;
  /** Sessions this process is working on. */
  readonly activeSessions: number;
  /** Shutdown phase 1: no new jobs, no reconciling. */
  stopIntake(): Promise<void>;
  /** Shutdown phase 2: loops to a step boundary, leases released (runs handed over), queue closed. */
  close(): Promise<void>;
}

/**
 * The worker's runtime: consumes the sessions queue with `concurrency` loops at once (model calls
 * are I/O, so hundreds per process), keeps the leases it holds alive, relays cancel requests and
 * inbox notices from the live bus, and reconciles sessions that lost their job.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { pool, logger } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const queue = createSessionQueue(options.redis, { prefix: options.queuePrefix });
  queue.on('error', (error) => logger.warn({ err: error }, 'queue producer error'));
  const enqueue = (job: SessionJob, nonce?: string) => enqueueSession(queue, job, nonce ? { nonce } : {});
  const bus = new LiveBus(options.publisher, options.subscriber);
  const active = new ActiveSessions();
  const keeper = new LeaseKeeper({ pool, owner: options.workerId, ttlMs: options.leaseTtlMs, logger });
  const db = createDbOnPool(pool);
  installSwarm(options.tools, { db, enqueue: (job) => enqueue(job), logger, routing: { prefix: options.queuePrefix, redis: options.redis } });
  const audit = new PolicyAudit(pool, options.auditTails);
  const shadow = new ShadowDisagreements({
    db,
    logger,
    notify: (teamId, runId, tool) => bus.publishTeamActivity(teamId, { kind: 'policy.shadow_disagreed', runId, tool }),
  });
  const policies = new TeamPolicies({ pool, audit, logger, shadow });
  const approvals = new ApprovalGate({ pool, policies, bus, clock, logger });
  // Bound once `jobs` exists: the level queues' loops are the same processor.
  let processJob: SessionJobs['process'] = async () => undefined;
  const isolationQueues = new IsolationQueues({
    redis: options.redis,
    prefix: options.queuePrefix,
    workerId: options.workerId,
    concurrency: options.concurrency,
    process: (job, token) => processJob(job, token),
    logger,
  });
  const jobs = new SessionJobs({
    pool,
    batcher: new FlushBatcher(pool),
    owner: options.workerId,
    leaseTtlMs: options.leaseTtlMs,
    live: new LiveEvents(bus, logger),
    models: options.models,
    tools: options.tools,
    keeper,
    clock,
    logger,
    policies,
    approvals,
    breakers: { policies, audit },
    runStarted: new RunStartedEvents(clock),
    active,
    admission: new AdmissionBatcher(pool, options.workerId, options.leaseTtlMs),
    enqueue: (job) => enqueue(job),
    forwardForIsolation: (job, wait) => isolationQueues.forward(job, wait),
  });
  processJob = jobs.process;
  const reconciler = new Reconciler({ pool, enqueue, intervalMs: options.reconcileIntervalMs, idleMs: options.reconcileIdleMs, logger });
  const sweeper = new ApprovalSweeper({
    db,
    clock,
    gate: approvals,
    enqueue: (job) => enqueue(job),
    intervalMs: options.approvalSweepIntervalMs ?? 15_000,
    logger,
  });

  const unsubscribe = [
    await bus.onCancel((message) => {
      for (const handle of active.forRun(message.runId)) if (!message.sessionId || message.sessionId === handle.sessionId) handle.interrupt('cancel');
    }),
    await bus.onAnyInbox((sessionId) => active.get(sessionId)?.interrupt('inbox')),
  ];

  // BullMQ fetches a worker's jobs one after another and starts none until it has `concurrency`
  // of them (or the queue is empty): with 2,000 runs enqueued together, one consumer would spend
  // seconds fetching before the first loop starts. Consumers of at most 250 loops each fetch in
  // parallel instead.
  const consumers = Math.min(16, Math.ceil(options.concurrency / 250));
  const workers = Array.from({ length: consumers }, (_, i) => {
    const worker = new Worker<SessionJob>(QUEUES.sessions.name, jobs.process, {
      connection: options.redis,
      prefix: options.queuePrefix,
      concurrency: Math.ceil(options.concurrency / consumers),
      autorun: false,
      name: `${options.workerId}/${i}`,
    });
    worker.on('failed', (job, error) =>
      logger.warn({ err: error, jobId: job?.id, sessionId: job?.data.sessionId, attempts: job?.attemptsMade }, 'session job failed'),
    );
    worker.on('error', (error) => logger.warn({ err: error }, 'queue worker error'));
    return worker;
  });
  keeper.start();
  reconciler.start();
  sweeper.start();
  for (const worker of workers) void worker.run();
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  // Runs waiting for a level this worker's sandbox gives: consumed once its drivers are probed (a
  // podman or microVM probe takes seconds; the worker does not wait for it to start).
  void options.tools
    .isolationLevels()
    .then((levels) => isolationQueues.consume(levels))
    .catch((error: unknown) => logger.warn({ err: error }, 'cannot take runs waiting for an isolation level'));

  let closed: Promise<void> | null = null;
  return {
    enqueue,
    get activeSessions() {
      return active.size;
    },
    async stopIntake() {
      jobs.stopIntake();
      await reconciler.stop();
      await sweeper.stop();
    },
    close() {
      closed ??= (async () => {
        jobs.stopIntake();
        await reconciler.stop();
        await sweeper.stop();
        active.shutdownAll(false);
        const hard = setTimeout(() => active.shutdownAll(true), options.drainMs);
        try {
          // Waits for every running job: each releases its session and enqueues its continuation.
          await Promise.all([...workers.map((worker) => worker.close()), isolationQueues.close()]);
        } finally {
          clearTimeout(hard);
        }
        await keeper.stop();
        for (const off of unsubscribe) await off().catch(() => undefined);
        await queue.close();
      })();
      return closed;
    },
  };
}
