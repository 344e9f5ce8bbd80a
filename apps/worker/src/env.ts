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

const schema = z.object({
  DATABASE_URL: optional.pipe(
    z.string({ error: 'is required (a postgres:// connection URL)' }).regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// connection URL'),
  ),
  REDIS_URL: optional.pipe(
    z.string({ error: 'is required (a redis:// URL)' }).regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL'),
  ),
  LOOPLANE_ENCRYPTION_KEY: optional.pipe(
    z
      .string()
      .refine(
        (value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
        'must be 32 random bytes, base64-encoded',
      )
      .optional(),
  ),
  WORKER_CONCURRENCY: wholeNumber(1, 10_000, 50),
  LEASE_TTL_MS: wholeNumber(1000, 600_000, 30_000),
  RECONCILE_INTERVAL_MS: wholeNumber(100, 600_000, 5000),
  RECONCILE_IDLE_MS: wholeNumber(100, 86_400_000, 30_000),
  SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000, 5000),
  DATABASE_POOL_SIZE: wholeNumber(1, 500, 20),
  QUEUE_PREFIX: optional.pipe(z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, :, _ or -').optional()).transform((p) => p ?? 'bull'),
  LOG_LEVEL: optional
    .pipe(z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).optional())
    .transform((level) => level ?? 'info'),
});

export type WorkerEnv = z.infer<typeof schema>;

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
