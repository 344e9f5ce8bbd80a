import { EffectDecisions } from './sandbox/effect-decisions';
import { PolicyAudit } from './ports/policy-audit';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AuditTails, PgPool } from '@looplane/db';
import packageJson from '../package.json' with { type: 'json' };
import { connectDatabase, connectRedis } from './connections';
import { InvalidEnvironmentError, loadWorkerEnv, sandboxDriversOf, workspaceRootOf, type WorkerEnv } from './env';
import { startHeartbeat } from './heartbeat';
import { createLogger } from './logger';
import { createWorkerObservability } from './metrics/worker-observability';
import { startMcp } from './mcp/start-mcp';
import { maybeStartTracing } from './telemetry/tracing';
import { ModelFactory } from './ports/model-factory';
import { startRuntime } from './runtime/runtime';
import { UploadSweeper } from './runtime/upload-sweeper';
import { recordSandboxProbe } from './sandbox/probe-store';
import { TeamEgressSource } from './sandbox/team-egress';
import { WorkerSandbox } from './sandbox/worker-sandbox';
import { WorkspaceRetention } from './sandbox/workspace-retention';
import { SessionWorkspaces } from './sessions/session-workspaces';
import { WorkspaceCache } from './sandbox/workspace-cache';
import { createWorkspaceStore } from '@looplane/workspaces';
import { Shutdown } from './shutdown';
import type { ToolRegistry } from './tools/tool-registry';
import { startWebhooks } from './webhooks/start-webhooks';
import { startScheduler } from './schedules/start-scheduler';

export interface WorkerProcessOptions {
  /** Registers the tools this worker executes (the sandbox tools, via `registerBuiltinTools`). */
  registerTools: (registry: ToolRegistry, deps: { pool: PgPool; sandbox: WorkerSandbox }) => void;
}

/**
 * The worker process: validate env → connect → announce itself (heartbeat) → consume the sessions
 * queue until SIGTERM/SIGINT → ordered shutdown: stop intake, bring loops to a step boundary and
 * release their sessions to other workers, flush logs, disconnect.
 */
export async function runWorkerProcess(options: WorkerProcessOptions): Promise<void> {
  let env: WorkerEnv;
  try {
    env = loadWorkerEnv();
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    // No logger yet (its level comes from the env): one plain line, like every Looplane process.
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }

  const logger = createLogger({ level: env.LOG_LEVEL });
  const shutdown = new Shutdown({ logger, timeoutMs: env.SHUTDOWN_DRAIN_MS + 5000 });
  shutdown.listen();
  process.on('unhandledRejection', (error) => {
    logger.fatal({ err: error }, 'unhandled promise rejection');
    void shutdown.run('unhandledRejection', 1);
  });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void shutdown.run('uncaughtException', 1);
  });

  const info = {
    id: `w_${randomBytes(6).toString('hex')}`,
    hostname: hostname(),
    pid: process.pid,
    startedAt: new Date().toISOString(),
    version: packageJson.version,
    concurrency: env.WORKER_CONCURRENCY,
    drivers: sandboxDriversOf(env),
  };

  try {
    const pool = await connectDatabase(env.DATABASE_URL, logger, env.DATABASE_POOL_SIZE);
    shutdown.register('disconnect', 'postgres', () => pool.end());
    const redis = await connectRedis(env.REDIS_URL, logger);
    const publisher = await connectRedis(env.REDIS_URL, logger, { failFast: true });
    const subscriber = await connectRedis(env.REDIS_URL, logger);
    shutdown.register('disconnect', 'redis', async () => {
      await Promise.all([redis.quit(), publisher.quit(), subscriber.quit()].map((p) => p.catch(() => undefined)));
    });
    const heartbeat = await startHeartbeat({ redis, info, logger });
    shutdown.register('stop-intake', 'heartbeat', () => heartbeat.stop());

    // The sandbox: probe the drivers, pick the configured one. A driver that does not work here is
    // logged and recorded for the Settings page; the worker still starts and its tool calls fail clearly.
    const store = createWorkspaceStore(env, pool);
    // One view of the teams' audit chains for every writer of this process.
    const auditTails: AuditTails = new Map();
    const sessionWorkspaces = new SessionWorkspaces(pool, store);
    const sandbox = await WorkerSandbox.start({
      driver: env.LOOPLANE_SANDBOX_DRIVER,
      offered: sandboxDriversOf(env),
      podmanRuntime: env.LOOPLANE_PODMAN_RUNTIME,
      microvmAccel: env.LOOPLANE_MICROVM_ACCEL,
      workspaceRoot: workspaceRootOf(env),
      environment: env.NODE_ENV,
      // Files live in the store of record; this host's workspace root is a cache of it.
      sessionWorkspaces,
      // The team's policy gives the egress allowlist, credentials (from team secrets) and sandbox minimums.
      egress: new TeamEgressSource({ pool, encryptionKey: env.LOOPLANE_ENCRYPTION_KEY, logger }),
      // Its effect rules decide each mutating call's result before it is kept.
      effects: new EffectDecisions({ audit: new PolicyAudit(pool, auditTails) }),
      // New sessions start from the repository, upload or session files their run names.
      seeding: {
        pool,
        encryptionKey: env.LOOPLANE_ENCRYPTION_KEY,
        store,
        maxMb: env.LOOPLANE_SEED_MAX_MB,
        timeoutSeconds: env.LOOPLANE_SEED_TIMEOUT_S,
      },
      logger,
    });
    const probeStore = await recordSandboxProbe(
      pool,
      {
        workerId: info.id,
        hostname: info.hostname,
        pid: info.pid,
        concurrency: info.concurrency,
        selectedDriver: sandbox.selected,
        available: sandbox.unavailable === null,
        reason: sandbox.unavailable,
        drivers: [{ ...sandbox.probe, offered: true }],
      },
      logger,
    );
    // The other drivers are probed in the background (podman takes seconds) and recorded when known.
    void sandbox.allProbes().then((all) => probeStore.update(all.map((probe) => ({ ...probe, offered: sandbox.offered.includes(probe.driver) }))));
    shutdown.register('stop-intake', 'sandbox probe', () => probeStore.stop());
    // Workspaces of runs that ended more than LOOPLANE_WORKSPACE_RETENTION_DAYS ago go, with their uids.
    const retention = new WorkspaceRetention({
      pool,
      store,
      workspaces: sandbox.workspaces,
      root: workspaceRootOf(env),
      retentionDays: env.LOOPLANE_WORKSPACE_RETENTION_DAYS,
      logger,
    });
    retention.start();
    shutdown.register('stop-intake', 'workspace retention', () => retention.stop());
    // Uploaded archives no run used go 24 hours after upload.
    const uploadSweeper = new UploadSweeper({ pool, logger });
    uploadSweeper.start();
    shutdown.register('stop-intake', 'upload sweep', () => uploadSweeper.stop());
    const cache = new WorkspaceCache({
      root: workspaceRootOf(env),
      workspaces: sandbox.workspaces,
      capMb: env.LOOPLANE_WORKSPACE_CACHE_MB,
      inUse: (id) => sandbox.inUse(id),
      logger,
    });
    sandbox.onPrepared = (id) => cache.touched(id);
    sandbox.onEnded = (id) => cache.released(id);
    shutdown.register('stop-intake', 'workspace cache', async () => cache.stop());

    const observability = createWorkerObservability({ env, pool, redis, workerId: info.id, logger, shutdown });
    const tools: ToolRegistry = observability.tools;
    options.registerTools(tools, { pool, sandbox });
    startMcp({ pool, sandbox, tools: observability.tools, logger, shutdown });
    const runtime = await startRuntime({
      pool,
      redis,
      publisher,
      subscriber,
      queuePrefix: env.QUEUE_PREFIX,
      workerId: info.id,
      concurrency: env.WORKER_CONCURRENCY,
      leaseTtlMs: env.LEASE_TTL_MS,
      reconcileIntervalMs: env.RECONCILE_INTERVAL_MS,
      reconcileIdleMs: env.RECONCILE_IDLE_MS,
      drainMs: env.SHUTDOWN_DRAIN_MS,
      tools,
      models: new ModelFactory(env.LOOPLANE_ENCRYPTION_KEY, observability.createModel),
      logger,
      auditTails,
    });
    shutdown.register('stop-intake', 'queue intake', () => runtime.stopIntake());
    // Signed webhooks: the outbox the database's triggers fill, delivered with retries.
    const webhooks = await startWebhooks({
      pool,
      redis,
      queuePrefix: env.QUEUE_PREFIX,
      workerId: info.id,
      encryptionKey: env.LOOPLANE_ENCRYPTION_KEY,
      allowPrivate: env.LOOPLANE_WEBHOOKS_ALLOW_PRIVATE,
      publicUrl: env.LOOPLANE_PUBLIC_URL ?? env.NEXTAUTH_URL ?? null,
      drainMs: env.SHUTDOWN_DRAIN_MS,
      logger,
    });
    shutdown.register('stop-intake', 'webhook outbox', () => webhooks.stopIntake());
    // Schedules: every worker fires what is due; Postgres makes each tick happen once.
    const scheduler = startScheduler({
      pool,
      redis,
      publisher,
      subscriber,
      queuePrefix: env.QUEUE_PREFIX,
      maxSleepMs: env.LOOPLANE_SCHEDULER_POLL_MS,
      // At most half the pool at a tick's peak: the session loops keep the rest.
      parallel: Math.max(1, Math.floor(env.DATABASE_POOL_SIZE / 4)),
      runLimits: { perMinute: env.LOOPLANE_RUNS_PER_MINUTE, maxQueued: env.LOOPLANE_MAX_QUEUED_RUNS },
      logger,
    });
    shutdown.register('stop-intake', 'scheduler', () => scheduler.stop());
    await observability.attach(runtime);
    await maybeStartTracing({ env, pool, logger, shutdown });
    shutdown.register('close', 'session loops', () => runtime.close());
    shutdown.register('close', 'webhook deliveries', () => webhooks.close());
    shutdown.register('close', 'egress proxies', () => sandbox.close());
    shutdown.register('flush', 'logger', async () => logger.flush());
    logger.info(
      {
        worker: info,
        heartbeatKey: heartbeat.key,
        tools: tools.names(),
        sandbox: { driver: sandbox.selected, unavailable: sandbox.unavailable },
        workspaceStore: store.driver,
      },
      'worker ready',
    );
  } catch (error) {
    logger.fatal({ err: error }, 'worker failed to start');
    await shutdown.run('startup failed', 1);
  }
}
