import { EffectDecisions } from '../sandbox/effect-decisions';
import { PolicyAudit } from '../ports/policy-audit';
import { randomBytes } from 'node:crypto';
import { createPgPool, type PgPool } from '@looplane/db';
import type { Clock } from '@looplane/engine';
import { LiveBus, createSessionQueue, enqueueSession, type RunEventMessage, type SessionJob, type TeamActivity } from '@looplane/queue';
import type { Queue } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import pino from 'pino';
import { createLogger } from '../logger';
import { ModelFactory, type CreateModel } from '../ports/model-factory';
import { startRuntime, type Runtime } from '../runtime/runtime';
import { WorkerSandbox, type WorkerSandboxOptions } from '../sandbox/worker-sandbox';
import { PostgresWorkspaceStore, type WorkspaceStore } from '@looplane/workspaces';
import { SessionWorkspaces } from '../sessions/session-workspaces';
import { registerBuiltinTools } from '../tools/builtin-tools';
import { ToolRegistry } from '../tools/tool-registry';
import { registerTestTools } from './test-tools';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A BullMQ prefix of its own, so test files running in parallel never share a queue. */
export function uniquePrefix(label: string): string {
  return `looplane-test-${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * A connection that is ready before it is used: a subscription issued while ioredis still runs its
 * ready check breaks the connection ("Connection in subscriber mode").
 */
async function connected(url: string, options: RedisOptions): Promise<Redis> {
  const redis = new Redis(url, { ...options, lazyConnect: true });
  await redis.connect();
  return redis;
}

export interface TestWorkerOptions {
  databaseUrl: string;
  prefix: string;
  redisUrl?: string;
  workerId?: string;
  concurrency?: number;
  leaseTtlMs?: number;
  reconcileIntervalMs?: number;
  drainMs?: number;
  createModel?: CreateModel;
  logLevel?: string;
  /** Registers the sandbox's built-in tools too (a real driver: bwrap by default). */
  sandbox?: Omit<WorkerSandboxOptions, 'logger' | 'environment'> & { environment?: string };
  /** Opens team secrets a run's repository names (LOOPLANE_ENCRYPTION_KEY). */
  encryptionKey?: string;
  /** The store of record for session files (default: the postgres store on the test database). */
  store?: WorkspaceStore;
  /** The runtime's clock (a test moves it forward to expire approvals). */
  clock?: Clock;
  approvalSweepIntervalMs?: number;
}

export interface TestWorker {
  runtime: Runtime;
  pool: PgPool;
  workerId: string;
  /** The worker's sandbox, when the options asked for one. */
  sandbox: WorkerSandbox | null;
  /** Shuts the runtime down the way SIGTERM does, then disconnects. */
  stop(): Promise<void>;
}

/** The worker runtime in-process, with the test tools, against a test database and Redis. */
export async function startTestWorker(options: TestWorkerOptions): Promise<TestWorker> {
  const redisUrl = options.redisUrl ?? testRedisUrl;
  const pool = createPgPool(options.databaseUrl, { max: 10 });
  const redis = await connected(redisUrl, { maxRetriesPerRequest: null });
  const publisher = await connected(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true });
  const subscriber = await connected(redisUrl, { maxRetriesPerRequest: null });
  const workerId = options.workerId ?? `w_test_${randomBytes(4).toString('hex')}`;
  const logger = process.env.TEST_WORKER_LOG
    ? createLogger({ level: 'debug', destination: pino.destination({ dest: process.env.TEST_WORKER_LOG, sync: true, append: true }) })
    : createLogger({ level: options.logLevel ?? 'silent' });
  const store = options.store ?? new PostgresWorkspaceStore(pool);
  const sandbox = options.sandbox
    ? await WorkerSandbox.start({
        environment: 'test',
        sessionWorkspaces: new SessionWorkspaces(pool, store),
        effects: new EffectDecisions({ audit: new PolicyAudit(pool) }),
        seeding: { pool, encryptionKey: options.encryptionKey, store },
        ...options.sandbox,
        logger,
      })
    : null;
  const tools = registerTestTools(registerBuiltinTools(new ToolRegistry(), sandbox ?? undefined), pool);
  const runtime = await startRuntime({
    pool,
    redis,
    publisher,
    subscriber,
    queuePrefix: options.prefix,
    workerId,
    concurrency: options.concurrency ?? 20,
    leaseTtlMs: options.leaseTtlMs ?? 30_000,
    reconcileIntervalMs: options.reconcileIntervalMs ?? 60_000,
    drainMs: options.drainMs ?? 2000,
    tools,
    models: new ModelFactory(undefined, options.createModel),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.approvalSweepIntervalMs ? { approvalSweepIntervalMs: options.approvalSweepIntervalMs } : {}),
    // TEST_WORKER_LOG=/path/file.log keeps the worker's debug log of a test run.
    logger,
  });
  return {
    runtime,
    pool,
    workerId,
    sandbox,
    async stop() {
      await runtime.close();
      await sandbox?.close();
      await pool.end();
      for (const r of [redis, publisher, subscriber]) await r.quit().catch(() => r.disconnect());
    },
  };
}

/** The API's side of the queue and the live bus, as a test plays it. */
export interface TestClient {
  queue: Queue<SessionJob>;
  bus: LiveBus;
  enqueue(job: SessionJob): Promise<void>;
  /** Every run event and team activity notice seen since the client started following the team. */
  runEvents: RunEventMessage[];
  activity: TeamActivity[];
  follow(teamId: string, runIds?: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function createTestClient(prefix: string, redisUrl = testRedisUrl): Promise<TestClient> {
  const redis = await connected(redisUrl, { maxRetriesPerRequest: null });
  const subscriber = await connected(redisUrl, { maxRetriesPerRequest: null });
  // Fault tests restart Redis under these: errors are expected, reconnection is automatic.
  for (const connection of [redis, subscriber]) connection.on('error', () => undefined);
  const queue = createSessionQueue(redis, { prefix });
  queue.on('error', () => undefined);
  const bus = new LiveBus(redis, subscriber);
  const client: TestClient = {
    queue,
    bus,
    runEvents: [],
    activity: [],
    enqueue: (job) => enqueueSession(queue, job),
    async follow(teamId, runIds = []) {
      await bus.onTeamActivity(teamId, (a) => client.activity.push(a));
      for (const runId of runIds) await bus.onRunEvent(runId, (m) => client.runEvents.push(m));
    },
    async close() {
      await queue.close();
      await redis.quit();
      await subscriber.quit();
    },
  };
  return client;
}

/** Polls `probe` until it returns a value (not undefined/false), or throws after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
