import { isAbsolute, resolve } from 'node:path';
import { addressAllowlistSchema } from '@looplane/shared/net';
import { workspaceStoreEnv, workspaceStoreProblem } from '@looplane/workspaces';
import { z } from 'zod';

/**
 * The one environment module of the worker process: nothing else in the worker reads
 * `process.env`. Validated once at boot; a malformed variable becomes one line naming it.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// An empty value (`REDIS_URL=` in a .env file) means "unset".
const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** A whole number in [min, max] given as a string, or `fallback` when unset. */
function wholeNumber(min: number, max: number, fallback: number) {
  const message = `must be a whole number between ${min} and ${max}`;
  return optional
    .pipe(
      z
        .string()
        .regex(/^\d+$/, message)
        .transform(Number)
        .refine((n) => n >= min && n <= max, message)
        .optional(),
    )
    .transform((n) => n ?? fallback);
}

const SANDBOX_DRIVERS = ['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none'] as const;
const PODMAN_RUNTIMES = ['runc', 'crun', 'runsc'] as const;
type SandboxDriverName = (typeof SANDBOX_DRIVERS)[number];

/** A comma-separated list of sandbox drivers (empty entries ignored); each must be a known driver. */
const driverList = optional.pipe(
  z
    .string()
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.enum(SANDBOX_DRIVERS, `must list drivers among ${SANDBOX_DRIVERS.join(', ')}`)))
    .optional(),
);

/** A directory path; a relative one is taken from the worker's working directory. */
const directory = optional.pipe(
  z
    .string()
    .refine((value) => !value.includes('\0'), 'must be a directory path')
    .transform((value) => (isAbsolute(value) ? value : resolve(value)))
    .optional(),
);

const schema = z
  .object({
    DATABASE_URL: optional.pipe(
      z.string({ error: 'is required (a postgres:// connection URL)' }).regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// connection URL'),
    ),
    REDIS_URL: optional.pipe(z.string({ error: 'is required (a redis:// URL)' }).regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')),
    LOOPLANE_ENCRYPTION_KEY: optional.pipe(
      z
        .string()
        .refine((value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32, 'must be 32 random bytes, base64-encoded')
        .optional(),
    ),
    WORKER_CONCURRENCY: wholeNumber(1, 10_000, 50),
    LEASE_TTL_MS: wholeNumber(1000, 600_000, 30_000),
    RECONCILE_INTERVAL_MS: wholeNumber(100, 600_000, 5000),
    RECONCILE_IDLE_MS: wholeNumber(100, 86_400_000, 30_000),
    SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000, 5000),
    DATABASE_POOL_SIZE: wholeNumber(1, 500, 20),
    QUEUE_PREFIX: optional
      .pipe(
        z
          .string()
          .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, :, _ or -')
          .optional(),
      )
      .transform((p) => p ?? 'bull'),
    /** Which sandbox runs the agent tools; a driver that does not work on this host fails the calls, never the worker. */
    LOOPLANE_SANDBOX_DRIVER: optional
      .pipe(z.enum(SANDBOX_DRIVERS, `must be one of ${SANDBOX_DRIVERS.join(', ')}`).optional())
      .transform((driver) => driver ?? 'bwrap'),
    /**
     * Drivers this worker offers besides LOOPLANE_SANDBOX_DRIVER: a call whose template, graph node
     * or policy asks for a stronger isolation level runs on one of them. Default: gvisor next to
     * bwrap, none otherwise. podman owns every workspace with one account, so it offers alone.
     */
    LOOPLANE_SANDBOX_DRIVERS: driverList,
    /** podman's OCI runtime for calls whose template names none: runc, crun or runsc (gVisor under podman). */
    LOOPLANE_PODMAN_RUNTIME: optional
      .pipe(z.enum(PODMAN_RUNTIMES, `must be one of ${PODMAN_RUNTIMES.join(', ')}`).optional())
      .transform((runtime) => runtime ?? 'runc'),
    /** How microVM guests run: `auto` (KVM where /dev/kvm serves session uids, TCG otherwise), `kvm` or `tcg`. */
    LOOPLANE_MICROVM_ACCEL: optional.pipe(z.enum(['auto', 'kvm', 'tcg'], 'must be one of auto, kvm, tcg').optional()).transform((accel) => accel ?? 'auto'),
    /** The worker's data directory (shared with `looplane start`); default ./.looplane. */
    LOOPLANE_HOME: directory.transform((dir) => dir ?? resolve('.looplane')),
    /** Where this host keeps its local copies of session workspaces (default <LOOPLANE_HOME>/workspaces): a cache of the store. */
    LOOPLANE_WORKSPACE_ROOT: directory,
    /** The local copies are trimmed (least recently used first) past this many megabytes. */
    LOOPLANE_WORKSPACE_CACHE_MB: wholeNumber(1, 100_000_000, 10_240),
    /** The most a seeded workspace (a cloned repository, an unpacked upload) may hold, in MB. */
    LOOPLANE_SEED_MAX_MB: wholeNumber(1, 1_000_000, 2048),
    /** How long fetching a repository may take, in seconds. */
    LOOPLANE_SEED_TIMEOUT_S: wholeNumber(1, 86_400, 600),
    /** The store of record for session files (postgres or s3) and its settings. */
    ...workspaceStoreEnv,
    /** A session's workspace (and its sandbox uid) is removed this many days after its run ended. */
    LOOPLANE_WORKSPACE_RETENTION_DAYS: wholeNumber(1, 3650, 7),
    /** dangerous-none runs only when this is `development`. */
    NODE_ENV: optional.transform((value) => value ?? 'production'),
    /** Port of the worker's `/metrics` listener (Prometheus text); unset: no listener. 0 picks a free port. */
    LOOPLANE_WORKER_METRICS_PORT: optional.pipe(
      z
        .string()
        .regex(/^\d+$/, 'must be a port number')
        .transform(Number)
        .refine((n) => n <= 65_535, 'must be a port number')
        .optional(),
    ),
    /** Interface the metrics listener binds (default 127.0.0.1, this machine only; 0.0.0.0 opens it, as the container does). */
    HOST: optional
      .pipe(
        z
          .string()
          .max(253)
          .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or an IP address')
          .optional(),
      )
      .transform((host) => host ?? '127.0.0.1'),
    /** Bearer token every `/metrics` scrape must send; required when a metrics port is set. */
    LOOPLANE_METRICS_TOKEN: optional.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    /** The restart counts file of `looplane start` (set by it) for `looplane_process_restarts_total`. */
    LOOPLANE_SUPERVISOR_STATE: optional.pipe(z.string().startsWith('/', 'must be an absolute path').optional()),
    /** OTLP HTTP endpoint for traces (e.g. http://collector:4318); unset: tracing is off and never loaded. */
    LOOPLANE_OTEL_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    OTEL_EXPORTER_OTLP_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    LOG_LEVEL: optional.pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).optional()).transform((level) => level ?? 'info'),
    /**
     * The longest the scheduler sleeps between looks at the schedules (it wakes at the next tick
     * when that is sooner): how soon a new or changed schedule's first tick can be seen.
     */
    LOOPLANE_SCHEDULER_POLL_MS: wholeNumber(50, 60_000, 1000),
    /** Run starts one team may make per rolling minute, scheduled ticks included, as in the web app (0: no limit). */
    LOOPLANE_RUNS_PER_MINUTE: wholeNumber(0, 1_000_000, 120),
    /** Queued runs one team may have; a scheduled tick beyond it is recorded as failed (0: no limit). */
    LOOPLANE_MAX_QUEUED_RUNS: wholeNumber(0, 10_000_000, 1000),
    /** Deliver webhooks to private, loopback, link-local (…) addresses too; default: public addresses only. */
    LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: optional.pipe(z.enum(['true', 'false'], 'must be true or false').optional()).transform((value) => value === 'true'),
    /**
     * Loopback, link-local and other special-purpose addresses model endpoints may still reach
     * (hosts, host:port or CIDR ranges, comma-separated); default none. Private ranges need no entry.
     */
    LOOPLANE_ENDPOINTS_ALLOW: optional.pipe(addressAllowlistSchema.optional()).transform((list) => list ?? []),
    /** The dashboard's public URL, for the links in webhook payloads (default: NEXTAUTH_URL; neither: no links). */
    LOOPLANE_PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    NEXTAUTH_URL: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  })
  .superRefine((env, ctx) => {
    const store = workspaceStoreProblem(env);
    if (store) ctx.addIssue({ code: 'custom', path: [store.variable], message: store.message });
    const offered = sandboxDriversOf(env);
    if (offered.includes('podman') && offered.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['LOOPLANE_SANDBOX_DRIVERS'],
        message: `podman runs every workspace as one account and cannot share a worker with ${offered.filter((d) => d !== 'podman').join(', ')}`,
      });
    if (offered.includes('dangerous-none') && env.LOOPLANE_SANDBOX_DRIVER !== 'dangerous-none')
      ctx.addIssue({ code: 'custom', path: ['LOOPLANE_SANDBOX_DRIVERS'], message: 'cannot offer dangerous-none: only LOOPLANE_SANDBOX_DRIVER may name it' });
    // Metrics are never public: a listener without a token would be.
    if (env.LOOPLANE_WORKER_METRICS_PORT !== undefined && !env.LOOPLANE_METRICS_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['LOOPLANE_METRICS_TOKEN'], message: 'is required when LOOPLANE_WORKER_METRICS_PORT is set' });
    }
  });

export type WorkerEnv = z.infer<typeof schema>;

/** Every driver the worker offers, its default (LOOPLANE_SANDBOX_DRIVER) first. */
export function sandboxDriversOf(env: {
  LOOPLANE_SANDBOX_DRIVER: SandboxDriverName;
  LOOPLANE_SANDBOX_DRIVERS?: SandboxDriverName[] | undefined;
}): SandboxDriverName[] {
  const extra = env.LOOPLANE_SANDBOX_DRIVERS ?? (env.LOOPLANE_SANDBOX_DRIVER === 'bwrap' ? ['gvisor' as const] : []);
  return [env.LOOPLANE_SANDBOX_DRIVER, ...extra.filter((driver) => driver !== env.LOOPLANE_SANDBOX_DRIVER)];
}

/** The workspace root: LOOPLANE_WORKSPACE_ROOT, or `workspaces` under the worker's data directory. */
export function workspaceRootOf(env: Pick<WorkerEnv, 'LOOPLANE_HOME' | 'LOOPLANE_WORKSPACE_ROOT'>): string {
  return env.LOOPLANE_WORKSPACE_ROOT ?? resolve(env.LOOPLANE_HOME, 'workspaces');
}

/** Thrown when the environment is invalid; its message is the one line to print. */
export class InvalidEnvironmentError extends Error {
  override readonly name = 'InvalidEnvironmentError';
}

/** Validates the worker's environment; the error names every malformed variable on one line. */
export function loadWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const result = schema.safeParse(source);
  if (!result.success) {
    const reasons = result.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`);
    throw new InvalidEnvironmentError(`Invalid environment: ${reasons.join('; ')}`);
  }
  return result.data;
}
