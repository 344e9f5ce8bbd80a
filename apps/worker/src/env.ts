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
  WORKER_CONCURRENCY: optional
    .pipe(
      z
        .string()
        .regex(/^\d+$/, 'must be a whole number between 1 and 1000')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 1000, 'must be a whole number between 1 and 1000')
        .optional(),
    )
    .transform((n) => n ?? 50),
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
