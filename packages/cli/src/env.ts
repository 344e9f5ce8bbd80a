import { resolve } from 'node:path';
import { weakPasswordReason } from '@looplane/shared';
import { z } from 'zod';
import type { Printer } from './printer';

/**
 * The one environment module of the CLI process: nothing else in the CLI reads `process.env`.
 * Values are validated once; a malformed variable becomes one line naming it.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Environment variables a child process may inherit from the CLI's own environment. */
const INHERITED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TERM',
  'LOOPLANE_SANDBOX_DRIVER',
  'LOOPLANE_SANDBOX_DRIVERS',
  'LOOPLANE_PODMAN_RUNTIME',
  'LOOPLANE_MICROVM_ACCEL',
  'LOOPLANE_WORKSPACE_ROOT',
];

/**
 * Product settings `looplane start` hands to the web app and the worker it starts (and to no other
 * child): each is validated by the process that reads it (apps/web/src/env.ts,
 * apps/worker/src/env.ts), so a malformed one stops that process with one line naming it.
 */
const PRODUCT_SETTINGS = [
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_NAME',
  'QUEUE_PREFIX',
  'WORKER_CONCURRENCY',
  'LOOPLANE_METRICS_TOKEN',
  'LOOPLANE_WORKER_METRICS_PORT',
  'LOOPLANE_OTEL_ENDPOINT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'LOOPLANE_WORKSPACE_RETENTION_DAYS',
  // Who may say who the client is (X-Forwarded-For), and the sign-in limit.
  'LOOPLANE_TRUSTED_PROXIES',
  'LOOPLANE_SIGNIN_ACCOUNT_FAILURES',
  'LOOPLANE_SIGNIN_ADDRESS_FAILURES',
  'LOOPLANE_SIGNIN_LOCKOUT_SECONDS',
  'LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS',
  'LOOPLANE_SIGNIN_WINDOW_SECONDS',
  // Where session files are stored of record (the local workspace root is only a cache).
  'LOOPLANE_WORKSPACE_STORE',
  'LOOPLANE_S3_ENDPOINT',
  'LOOPLANE_S3_BUCKET',
  'LOOPLANE_S3_PREFIX',
  'LOOPLANE_S3_REGION',
  'LOOPLANE_WORKSPACE_CACHE_MB',
  // How fast a session held by a dead worker is taken over by another.
  'LEASE_TTL_MS',
  'RECONCILE_INTERVAL_MS',
  'RECONCILE_IDLE_MS',
  'SHUTDOWN_DRAIN_MS',
  'DATABASE_POOL_SIZE',
  // How much work one team may start (the API's run-start limits).
  'LOOPLANE_RUNS_PER_MINUTE',
  'LOOPLANE_MAX_QUEUED_RUNS',
  // The largest archive an upload may be (the API's upload limit).
  'LOOPLANE_UPLOAD_MAX_MB',
  // Where webhooks may be delivered (web checks at save, worker at every attempt) and the dashboard links in them.
  'LOOPLANE_WEBHOOKS_ALLOW_PRIVATE',
  'LOOPLANE_PUBLIC_URL',
  // Which special-purpose addresses model endpoints may reach (web checks at save and test, worker at every call).
  'LOOPLANE_ENDPOINTS_ALLOW',
];

/** Cloud credentials, passed on only when the s3 store is configured (which reads them). */
const S3_CREDENTIALS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];

// An empty value (`PORT=` in a .env file) means "unset".
const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const schema = z.object({
  DATABASE_URL: optional.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// connection URL')
      .optional(),
  ),
  REDIS_URL: optional.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  PORT: optional
    .pipe(
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be a port number between 1 and 65535')
        .transform(Number)
        .refine((port) => port >= 1 && port <= 65535, 'must be a port number between 1 and 65535')
        .optional(),
    )
    .transform((port) => port ?? 3000),
  /** Interface the dashboard (and the worker's metrics listener) binds: this machine only unless set (0.0.0.0: every interface). */
  HOST: optional
    .pipe(
      z
        .string()
        .max(253)
        .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or an IP address (e.g. 0.0.0.0 for every interface)')
        .optional(),
    )
    .transform((host) => host ?? '127.0.0.1'),
  LOOPLANE_HOME: optional,
  LOOPLANE_ADMIN_PASSWORD: optional.pipe(
    z
      .string()
      .min(8, 'must be at least 8 characters')
      .superRefine((password, ctx) => {
        // The seeded admin signs in with it: the same rule as every account password.
        const reason = weakPasswordReason(password);
        if (reason) ctx.addIssue({ code: 'custom', message: reason });
      })
      .optional(),
  ),
  LOOPLANE_BOOTSTRAP_TOKEN: optional.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{16,200}$/, 'must be 16 to 200 printable characters with no spaces')
      .optional(),
  ),
  NEXTAUTH_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  LOOPLANE_ENCRYPTION_KEY: optional.pipe(
    z
      .string()
      .refine(
        (value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
        'must be 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
      )
      .optional(),
  ),
  LOG_LEVEL: optional.pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).optional()).transform((level) => level ?? 'info'),
  /** The Looplane server `run` and `tail` talk to. */
  LOOPLANE_URL: optional
    .pipe(
      z
        .string()
        .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http:// or https:// URL')
        .optional(),
    )
    .transform((url) => (url ?? 'http://localhost:3000').replace(/\/+$/, '')),
  /** A team API token (Bearer) for `run` and `tail`. */
  LOOPLANE_TOKEN: optional.pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/, 'must be an API token (printable characters, no spaces)')
      .optional(),
  ),
});

/** The CLI's validated environment. */
export interface CliEnv extends Omit<z.infer<typeof schema>, 'LOOPLANE_HOME'> {
  /** Absolute; defaults to `<cwd>/.looplane`. */
  LOOPLANE_HOME: string;
  /** The variables children may inherit (PATH, HOME, locale...), never secrets. */
  inherited: Record<string, string>;
  /** Product settings (SSO, metrics, tracing, queue, workspace store) passed to the web app and the worker only. */
  productSettings: Record<string, string>;
}

/** Thrown when the environment is invalid; its message is the one line to print. */
export class InvalidEnvironmentError extends Error {
  override readonly name = 'InvalidEnvironmentError';
}

// Only values that cannot be secrets are echoed back in error messages.
const ECHOED = new Set(['PORT', 'HOST', 'LOG_LEVEL']);

function describe(issue: z.core.$ZodIssue, source: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? 'environment');
  const got = ECHOED.has(name) && source[name] !== undefined ? ` (got "${source[name]}")` : '';
  return `${name} ${issue.message}${got}`;
}

/**
 * Validates the CLI's environment. Throws {@link InvalidEnvironmentError} whose message names every
 * malformed variable on one line.
 */
export function loadCliEnv(source: Record<string, string | undefined> = process.env, cwd = process.cwd()): CliEnv {
  const result = schema.safeParse(source);
  if (!result.success) {
    const reasons = result.error.issues.map((issue) => describe(issue, source));
    throw new InvalidEnvironmentError(`Invalid environment: ${reasons.join('; ')}`);
  }
  const inherited: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = source[name];
    if (value !== undefined) inherited[name] = value;
  }
  const productSettings: Record<string, string> = {};
  const s3 = source.LOOPLANE_WORKSPACE_STORE?.trim() === 's3';
  for (const name of s3 ? [...PRODUCT_SETTINGS, ...S3_CREDENTIALS] : PRODUCT_SETTINGS) {
    const value = source[name]?.trim();
    if (value) productSettings[name] = value;
  }
  return {
    ...result.data,
    LOOPLANE_HOME: resolve(cwd, result.data.LOOPLANE_HOME ?? '.looplane'),
    inherited,
    productSettings,
  };
}

/**
 * The environment of a command that runs a process (start, worker, migrate), or null after
 * printing the one line that names what is wrong.
 */
export function cliEnvOrReport(printer: Pick<Printer, 'error'>, source: Record<string, string | undefined> = process.env): CliEnv | null {
  try {
    return loadCliEnv(source);
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    printer.error(error.message);
    return null;
  }
}
