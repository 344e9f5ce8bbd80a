import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliEnv } from '../env';
import type { Printer } from '../printer';
import { spawnChild, type ManagedChild } from './children';
import { startEmbeddedPostgres } from './embedded-postgres';
import { isPortFree } from './free-port';
import { waitForHealth } from './health';
import { acquireInstanceLock, type InstanceLock } from './instance-lock';
import { Lifecycle } from './lifecycle';
import { applyMigrations, generatePrismaClient, prismaClientMissing } from './migrate';
import { paths } from './paths';
import { runCommand } from './run-command';
import { startPrivateRedis } from './private-redis';
import { ensureRedisServer } from './redis-binary';
import { SecretStore } from './secrets';
import { seed } from './seed';
import { signInHint } from './sign-in-hint';
import { ensureWebBuild } from './web-build';

const HEALTH_TIMEOUT_MS = 120_000;

/**
 * `looplane start`: brings up Postgres (embedded unless DATABASE_URL), Redis (private unless
 * REDIS_URL), migrations, seed, the dashboard build, then web and worker; waits for /api/health;
 * runs until Ctrl-C / SIGTERM or until a child dies; stops everything in reverse order.
 * Resolves to the exit code: 0 after a requested stop, 1 after a failure.
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

  let redisUrl = env.REDIS_URL;
  if (!redisUrl) {
    const redisServer = await ensureRedisServer({ env: env.inherited, printer, signal });
    printer.info('Starting a private redis-server…');
    const redis = await startPrivateRedis({ home, redisServer, inheritedEnv: env.inherited });
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
  const seeded = await seed({
    databaseUrl,
    ...(env.LOOPLANE_ADMIN_PASSWORD ? { adminPassword: env.LOOPLANE_ADMIN_PASSWORD } : {}),
    ...(env.LOOPLANE_BOOTSTRAP_TOKEN ? { bootstrapToken: env.LOOPLANE_BOOTSTRAP_TOKEN } : {}),
  });
  if (seeded.generatedPassword) {
    // Printed right away: should anything below fail, this password is still the only way in.
    printer.info(`Created the admin ${seeded.adminEmail} with the generated password ${seeded.generatedPassword}`);
    printer.info('  (shown on this start only: store it now, or set LOOPLANE_ADMIN_PASSWORD before the first start)');
  }
  signal.throwIfAborted();

  await ensureWebBuild({ home, env: env.inherited, signal, printer });

  const appEnv = {
    ...env.inherited,
    ...env.productSettings,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET ?? (await secrets.get('nextauthSecret')),
    NEXTAUTH_URL: `http://localhost:${env.PORT}`,
    LOOPLANE_ENCRYPTION_KEY: env.LOOPLANE_ENCRYPTION_KEY ?? (await secrets.get('encryptionKey')),
    LOG_LEVEL: env.LOG_LEVEL,
  };
  printer.info('Starting the dashboard and the worker…');
  const web = await spawnChild({
    name: 'web',
    command: process.execPath,
    args: [paths.nextBin, 'start', '-p', String(env.PORT)],
    cwd: paths.webDir,
    // The web reads the workers' workspaces (same data directory) for branch file diffs.
    env: { ...appEnv, LOOPLANE_HOME: home, NEXT_TELEMETRY_DISABLED: '1' },
    printer,
  });
  await track(web, () => web.stop('SIGTERM', 10_000));
  // The worker runs as plain JavaScript, bundled now from the current sources (under a second).
  await runCommand({ name: 'worker build', command: process.execPath, args: [join(paths.workerDir, 'build.mjs')], cwd: paths.workerDir, env: env.inherited, signal });
  const worker = await spawnChild({
    name: 'worker',
    command: process.execPath,
    args: [join(paths.workerDir, 'dist', 'main.mjs')],
    cwd: paths.workerDir,
    // The worker keeps session workspaces under the same data directory (<home>/workspaces).
    env: { ...appEnv, LOOPLANE_HOME: home },
    printer,
  });
  // The worker's own shutdown has a 10 s hard timeout; SIGKILL only if it is stuck beyond that.
  await track(worker, () => worker.stop('SIGTERM', 15_000));

  await waitForHealth(env.PORT, { timeoutMs: HEALTH_TIMEOUT_MS, signal });
  for (const line of signInHint(env.PORT, seeded, env.LOOPLANE_ADMIN_PASSWORD !== undefined)) printer.info(line);
  printer.info(`(ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; data and logs in ${home})`);
}
