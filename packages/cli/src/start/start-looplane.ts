import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliEnv } from '../env';
import type { Printer } from '../printer';
import { appEnvironments } from './app-env';
import type { ManagedChild } from './children';
import { startEmbeddedPostgres } from './embedded-postgres';
import { ensureDemoRepository } from './demo-repository';
import { isPortFree } from './free-port';
import { waitForHealth } from './health';
import { acquireInstanceLock, type InstanceLock } from './instance-lock';
import { Lifecycle } from './lifecycle';
import { localUrl } from './listen-address';
import { applyMigrations, generatePrismaClient, prismaClientMissing } from './migrate';
import { startPrivateRedis } from './private-redis';
import { ensureHostPackages } from './host-packages';
import { SecretStore } from './secrets';
import { seed } from './seed';
import { signInHint } from './sign-in-hint';
import { SupervisedChild } from './supervised-child';
import { SupervisorState, supervisorStateFile } from './supervisor-state';
import { ensureWebBuild } from './web-build';
import { buildWebServerBundle, spawnWeb } from './web-launch';
import { buildWorkerBundle, spawnWorker, stopWorker } from './worker-launch';

const HEALTH_TIMEOUT_MS = 120_000;

/**
 * `looplane start`: brings up Postgres (embedded unless DATABASE_URL), Redis (private unless
 * REDIS_URL), migrations, seed, the dashboard build, then web and worker; waits for /api/health;
 * runs until Ctrl-C / SIGTERM, restarting the web or the worker when one dies (see
 * {@link SupervisedChild}); stops everything in reverse order. A dying Postgres or Redis, or a web
 * or worker dying before Looplane is ready, stops everything. Resolves to the exit code: 0 after
 * a requested stop, 1 after a failure.
 */
export async function startLooplane(env: CliEnv, printer: Printer): Promise<number> {
  const startedAt = Date.now();
  if (!(await isPortFree(env.PORT))) {
    printer.error(`port ${env.PORT} is already in use: stop whatever listens on it, or set PORT to a free port`);
    return 1;
  }
  await mkdir(join(env.LOOPLANE_HOME, 'logs'), { recursive: true });
  const lock = await acquireInstanceLock(env.LOOPLANE_HOME, printer);
  const lifecycle = new Lifecycle(printer);
  lifecycle.add('the instance lock', () => lock.release());
  const removeSignalHandlers = lifecycle.handleSignals();
  try {
    await bringUp(env, printer, lifecycle, lock, startedAt);
    await lifecycle.stopped();
  } catch (error) {
    if (!lifecycle.signal.aborted) lifecycle.fail(error instanceof Error ? error.message : String(error));
  }
  const reason = lifecycle.reason!;
  if (reason.kind === 'failure') printer.error(`${reason.message}\nStopping Looplane…`);
  await lifecycle.stopAll();
  removeSignalHandlers();
  printer.info('Looplane stopped.');
  return reason.kind === 'signal' ? 0 : 1;
}

async function bringUp(env: CliEnv, printer: Printer, lifecycle: Lifecycle, lock: InstanceLock, startedAt: number) {
  const { signal } = lifecycle;
  const home = env.LOOPLANE_HOME;
  const logDir = join(home, 'logs');
  const secrets = await SecretStore.open(home);
  const track = async (child: ManagedChild, stop?: () => Promise<void>) => {
    lifecycle.manage(child, stop);
    await lock.record(child.name, child.pid);
  };

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    printer.info('Starting the embedded Postgres…');
    const postgres = await startEmbeddedPostgres({
      home,
      password: await secrets.get('postgresPassword'),
      inheritedEnv: env.inherited,
      onStep: (line) => printer.info(line),
    });
    await track(postgres.child, postgres.stop);
    databaseUrl = postgres.url;
  }
  signal.throwIfAborted();

  // redis-server (when no REDIS_URL) and the sandbox's bubblewrap, socat and git, installed if missing.
  const { redisServer } = await ensureHostPackages({
    env: env.inherited,
    printer,
    signal,
    needRedis: !env.REDIS_URL,
    sandboxDriver: env.inherited.LOOPLANE_SANDBOX_DRIVER,
    sandboxDrivers: (env.inherited.LOOPLANE_SANDBOX_DRIVERS ?? '').split(',').map((name) => name.trim()),
  });
  let redisUrl = env.REDIS_URL;
  if (!redisUrl) {
    printer.info('Starting a private redis-server…');
    const redis = await startPrivateRedis({ home, redisServer: redisServer!, password: await secrets.get('redisPassword'), inheritedEnv: env.inherited });
    await track(redis.child, redis.stop);
    redisUrl = redis.url;
  }
  signal.throwIfAborted();

  const prismaOptions = { env: env.inherited, logDir, signal };
  if (prismaClientMissing()) {
    printer.info('Generating the Prisma client…');
    await generatePrismaClient(prismaOptions);
  }
  printer.info('Applying database migrations…');
  await applyMigrations({ ...prismaOptions, databaseUrl });
  signal.throwIfAborted();
  // Before the seed, which points the demo-repo agent at it (after the Prisma client exists: its
  // files come from @looplane/db). A demo must not keep Looplane from starting.
  const demoRepository = await ensureDemoRepository({ home, env: env.inherited, signal, logDir }).catch((error: unknown) => {
    signal.throwIfAborted();
    printer.warn(`the demo repository could not be made, so the demo-repo agent is left out: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
  if (demoRepository?.created) printer.info(`Created the demo repository ${demoRepository.path} (the demo-repo agent fixes its failing test)`);
  signal.throwIfAborted();
  const encryptionKey = env.LOOPLANE_ENCRYPTION_KEY ?? (await secrets.get('encryptionKey'));
  const seeded = await seed({
    databaseUrl,
    encryptionKey,
    ...(env.LOOPLANE_ADMIN_PASSWORD ? { adminPassword: env.LOOPLANE_ADMIN_PASSWORD } : {}),
    ...(env.LOOPLANE_BOOTSTRAP_TOKEN ? { bootstrapToken: env.LOOPLANE_BOOTSTRAP_TOKEN } : {}),
    ...(demoRepository ? { demoRepositoryPath: demoRepository.path } : {}),
  });
  if (seeded.generatedPassword) {
    // Printed right away: should anything below fail, this password is still the only way in.
    printer.info(`Created the admin ${seeded.adminEmail} with the generated password ${seeded.generatedPassword}`);
    printer.info('  (shown on this start only: store it now, or set LOOPLANE_ADMIN_PASSWORD before the first start)');
  }
  signal.throwIfAborted();

  await ensureWebBuild({ home, env: env.inherited, signal, printer });
  // Restart counts for `looplane_process_restarts_total`, read by the web and the worker.
  const state = new SupervisorState(supervisorStateFile(home));
  await state.save();

  const apps = appEnvironments(env, {
    databaseUrl,
    redisUrl,
    nextauthSecret: env.NEXTAUTH_SECRET ?? (await secrets.get('nextauthSecret')),
    encryptionKey,
    supervisorState: state.file,
  });
  const supervise = async (name: 'web' | 'worker', spawn: () => Promise<ManagedChild>, stop: (child: ManagedChild) => Promise<void>) => {
    const child = await SupervisedChild.start({
      name,
      spawn,
      stop,
      printer,
      state,
      onSpawn: (c) => lock.record(name, c.pid),
      onFatal: (message) => lifecycle.fail(message),
    });
    lifecycle.supervise(name, child);
    return child;
  };
  printer.info('Starting the dashboard and the worker…');
  await buildWebServerBundle({ env: env.inherited, signal });
  const web = await supervise(
    'web',
    () => spawnWeb({ env: apps.web, printer }),
    (child) => child.stop('SIGTERM', 10_000),
  );
  await buildWorkerBundle({ env: env.inherited, signal });
  const worker = await supervise('worker', () => spawnWorker({ env: apps.worker, printer }), stopWorker);

  const listen = { host: env.HOST, port: env.PORT };
  await waitForHealth(localUrl(listen), { timeoutMs: HEALTH_TIMEOUT_MS, signal });
  // Up and healthy: from now on a web or worker that dies is restarted, not fatal.
  web.arm();
  worker.arm();
  for (const line of signInHint(listen, seeded, env.LOOPLANE_ADMIN_PASSWORD !== undefined)) printer.info(line);
  printer.info(`(ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; data and logs in ${home})`);
}
