import { addressAllowlistSchema } from '@looplane/shared/net';
import { workspaceStoreEnv, workspaceStoreProblem } from '@looplane/workspaces';
import { z } from 'zod';
import { InvalidEnvironmentError, listenerShape, optionalString, parseWith } from './env-listener';

export { InvalidEnvironmentError };

/**
 * The one environment module of the web process: nothing else reads `process.env`.
 *
 * Validation is lazy (first `env()` call) so `next build` needs no real values; `instrumentation.ts`
 * validates at server start, so a missing or malformed variable stops start-up with one line.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const CACHE_MB_MESSAGE = 'must be a whole number of megabytes between 1 and 100000000';

/** A whole number setting between `min` and `max`, `fallback` when unset. */
function wholeNumber(fallback: number, min: number, max: number) {
  const message = `must be a whole number between ${min} and ${max}`;
  return optionalString
    .pipe(z.string().regex(/^\d+$/, message).transform(Number).pipe(z.int().min(min, message).max(max, message)).optional())
    .transform((value) => value ?? fallback);
}

const schema = z
  .object({
    DATABASE_URL: z.string({ error: 'is required (a postgres:// connection URL)' }).regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL'),
    REDIS_URL: z.string({ error: 'is required (a redis:// URL)' }).regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
    NEXTAUTH_SECRET: z.string({ error: 'is required (at least 32 characters)' }).min(32, 'is required (at least 32 characters)'),
    /** NEXTAUTH_URL, HOST, PORT, LOOPLANE_TRUSTED_PROXIES: what the server in front of Next reads too. */
    ...listenerShape,
    OIDC_ISSUER: optionalString.pipe(z.url('must be an absolute URL').optional()),
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_NAME: optionalString.transform((value) => value ?? 'SSO'),
    LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).optional()),
    /** BullMQ key prefix; must match the workers' QUEUE_PREFIX (default `bull`). */
    QUEUE_PREFIX: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, :, _ or -')
        .optional(),
    ),
    /** Seals model endpoint keys (AES-256-GCM); the same value the workers use to open them. */
    LOOPLANE_ENCRYPTION_KEY: optionalString.pipe(
      z
        .string()
        .refine(
          (value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
          'must be 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)',
        )
        .optional(),
    ),
    /** The workspace store session files are read from (the same settings as the workers'). */
    ...workspaceStoreEnv,
    /**
     * Size cap of this server's local cache of workspace repositories (filled from the store on
     * demand; the least recently read runs are dropped past it). Default 2048.
     */
    LOOPLANE_WORKSPACE_CACHE_MB: optionalString
      .pipe(z.string().regex(/^\d+$/, CACHE_MB_MESSAGE).transform(Number).pipe(z.int().min(1, CACHE_MB_MESSAGE).max(100_000_000, CACHE_MB_MESSAGE)).optional())
      .transform((mb) => mb ?? 2048),
    /** The instance's home; the workspace cache is `<LOOPLANE_HOME>/web-cache/workspaces` (unset: a temp dir). */
    LOOPLANE_HOME: optionalString.pipe(z.string().startsWith('/', 'must be an absolute path').optional()),
    /** The restart counts file of `looplane start` (set by it) for `looplane_process_restarts_total`. */
    LOOPLANE_SUPERVISOR_STATE: optionalString.pipe(z.string().startsWith('/', 'must be an absolute path').optional()),
    /** Failed sign-ins of one account before it is locked out (`SignInLimiter`). */
    LOOPLANE_SIGNIN_ACCOUNT_FAILURES: wholeNumber(5, 1, 1000),
    /** Failed sign-ins from one client address (IPv6: its /64) before it is locked out. */
    LOOPLANE_SIGNIN_ADDRESS_FAILURES: wholeNumber(20, 1, 100_000),
    /** The first lockout, doubled by each further failure. */
    LOOPLANE_SIGNIN_LOCKOUT_SECONDS: wholeNumber(30, 1, 86_400),
    /** The longest lockout. */
    LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS: wholeNumber(900, 1, 604_800),
    /** Failures are forgotten after this long without another one. */
    LOOPLANE_SIGNIN_WINDOW_SECONDS: wholeNumber(900, 1, 604_800),
    /** Runs, forks and resumes one team may start per rolling minute (0: no limit). */
    LOOPLANE_RUNS_PER_MINUTE: wholeNumber(120, 0, 1_000_000),
    /** Queued runs one team may have; a new run beyond it is refused (0: no limit). */
    LOOPLANE_MAX_QUEUED_RUNS: wholeNumber(1000, 0, 10_000_000),
    /**
     * Largest archive `POST /api/v1/uploads` takes, in MiB (it may unpack to ten times that, at most
     * 1 GiB). At most 256: it is one bytea value, read back as hex text, and Postgres caps a value at 1 GiB.
     */
    LOOPLANE_UPLOAD_MAX_MB: wholeNumber(100, 1, 256),
    /** Webhook endpoints may point at private, loopback, link-local (…) addresses too; default: public addresses only. */
    LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: optionalString.pipe(z.enum(['true', 'false'], 'must be true or false').optional()).transform((value) => value === 'true'),
    /**
     * Loopback, link-local and other special-purpose addresses model endpoints may still reach
     * (hosts, host:port or CIDR ranges, comma-separated); default none. Private ranges need no entry.
     */
    LOOPLANE_ENDPOINTS_ALLOW: optionalString.pipe(addressAllowlistSchema.optional()).transform((list) => list ?? []),
    /** Bearer token for `/metrics` (Prometheus); unset: `/metrics` answers 401 to everyone. */
    LOOPLANE_METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  })
  .superRefine((value, ctx) => {
    const oidc = [value.OIDC_ISSUER, value.OIDC_CLIENT_ID, value.OIDC_CLIENT_SECRET];
    const set = oidc.filter((v) => v !== undefined).length;
    if (set !== 0 && set !== 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)',
      });
    }
    if (value.LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS < value.LOOPLANE_SIGNIN_LOCKOUT_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS'],
        message: 'LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS must be at least LOOPLANE_SIGNIN_LOCKOUT_SECONDS',
      });
    }
    const store = workspaceStoreProblem(value);
    if (store) ctx.addIssue({ code: 'custom', path: [store.variable], message: `${store.variable} ${store.message}` });
  });

export type Env = z.infer<typeof schema>;

/** Parses an environment record; throws `InvalidEnvironmentError` naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  return parseWith(schema, source);
}

let cached: Env | undefined;

/** The validated environment of this process (validated once, on first use). */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** True while `next build` runs: server modules are evaluated but no real env is needed. */
function isBuildPhase(): boolean {
  return process.env.NEXT_PHASE === 'phase-production-build';
}

/** Whether SSO (OIDC) sign-in is configured. */
export function oidcConfigured(e: Env): e is Env & {
  OIDC_ISSUER: string;
  OIDC_CLIENT_ID: string;
  OIDC_CLIENT_SECRET: string;
} {
  return e.OIDC_ISSUER !== undefined && e.OIDC_CLIENT_ID !== undefined && e.OIDC_CLIENT_SECRET !== undefined;
}

/**
 * next-auth 4 reads its origin from `process.env` itself. Without NEXTAUTH_URL it must trust the
 * request's Host / X-Forwarded-* headers, or every redirect would point at localhost:3000.
 * This is the only write to `process.env` in the web process.
 */
export function configureNextAuthOrigin(e: Env): void {
  if (e.NEXTAUTH_URL === undefined) process.env.AUTH_TRUST_HOST ??= 'true';
}

/**
 * Validates the environment when the server starts; on failure prints the one-line reason and
 * exits. A no-op while `next build` evaluates server modules.
 */
export function validateEnvAtStartup(): void {
  if (isBuildPhase()) return;
  try {
    env();
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
