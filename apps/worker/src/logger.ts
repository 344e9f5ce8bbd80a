import pino, { type DestinationStream, type Logger } from 'pino';

/** Keys whose values are secrets wherever they appear (top level or one object down). */
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'apiKey',
  'secret',
  'clientSecret',
  'encryptionKey',
  'privateKey',
  'authorization',
  'cookie',
  'databaseUrl',
  'redisUrl',
  'DATABASE_URL',
  'REDIS_URL',
  'LOOPLANE_ENCRYPTION_KEY',
  'NEXTAUTH_SECRET',
];

/** pino redaction paths built from {@link SECRET_KEYS}. */
const REDACT_PATHS = [...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]), 'req.headers.authorization', 'req.headers.cookie'];

const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;

/** Replaces the `user:password@` part of every URL in `text` (postgres://u:p@host → postgres://[redacted]@host). */
export function scrubCredentials(text: string): string {
  return text.replace(CREDENTIALS_IN_URL, '$1[redacted]@');
}

function scrubDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubCredentials(value);
  if (depth <= 0 || value === null || typeof value !== 'object') return value;
  // Errors carry their text in non-enumerable fields: serialize first, then scrub.
  if (value instanceof Error) return scrubDeep(pino.stdSerializers.err(value), depth);
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubDeep(item, depth - 1);
  return out;
}

/**
 * The worker's pino logger: JSON lines, secrets redacted by key, and credentials stripped from any
 * URL found in the message or in logged values (connection errors quote their URL).
 */
export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      name: 'looplane-worker',
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { log: (object) => scrubDeep(object, 4) as Record<string, unknown> },
      // formatters.log has already turned errors into scrubbed plain objects; keep them as they are.
      serializers: { err: (value: unknown) => (value instanceof Error ? scrubDeep(value, 4) : value) },
      hooks: {
        logMethod(args, method) {
          // `log.error(err)` would use the raw err.message as the message: give it a scrubbed one.
          const [first, ...rest] = args as unknown[];
          const normalised = first instanceof Error && typeof rest[0] !== 'string' ? [{ err: first }, first.message, ...rest] : args;
          const scrubbed = normalised.map((arg) => (typeof arg === 'string' ? scrubCredentials(arg) : arg));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
