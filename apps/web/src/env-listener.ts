import { z } from 'zod';
import { parseTrustedProxies } from './lib/trusted-proxies';

/**
 * The part of the web process's environment that the HTTP server in front of Next
 * (`server/main.ts`) reads before Next loads: where to listen, which proxies to believe, the public
 * URL. `env.ts` spreads {@link listenerShape} into the process's one schema, so every variable is
 * still validated in one place and named the same way.
 */

/** An empty value (`HOST=` in a .env file) means "unset". */
export const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const PORT_MESSAGE = 'must be a port number between 1 and 65535';

export const listenerShape = {
  /** The public URL; its origin may send state changes, and an https one turns on HSTS. */
  NEXTAUTH_URL: optionalString.pipe(z.url('must be an absolute URL').optional()),
  /** Interface to listen on; default 127.0.0.1 (this machine only). */
  HOST: optionalString
    .pipe(
      z
        .string()
        .max(253)
        .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or an IP address (e.g. 0.0.0.0 for every interface)')
        .optional(),
    )
    .transform((host) => host ?? '127.0.0.1'),
  PORT: optionalString
    .pipe(
      z
        .string()
        .regex(/^\d{1,5}$/, PORT_MESSAGE)
        .transform(Number)
        .pipe(z.int().min(1, PORT_MESSAGE).max(65535, PORT_MESSAGE))
        .optional(),
    )
    .transform((port) => port ?? 3000),
  /** Proxies whose X-Forwarded-For / -Proto / -Host are believed (IPs and CIDR blocks); none by default. */
  LOOPLANE_TRUSTED_PROXIES: optionalString.transform((text, ctx) => {
    try {
      return parseTrustedProxies(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `LOOPLANE_TRUSTED_PROXIES: ${(error as Error).message} (a comma-separated list of IPs and CIDR blocks)` });
      return z.NEVER;
    }
  }),
};

/** Thrown when the environment is invalid; its message is the one line to print. */
export class InvalidEnvironmentError extends Error {
  override readonly name = 'InvalidEnvironmentError';
}

function formatIssue(issue: z.core.$ZodIssue): string {
  // Cross-field and custom messages already name every variable involved.
  if (issue.code === 'custom') return issue.message;
  return `${issue.path.join('.')} ${issue.message}`;
}

/** Parses `source` with `schema`; throws {@link InvalidEnvironmentError} naming the first bad variable. */
export function parseWith<T extends z.ZodType>(schema: T, source: Record<string, string | undefined>): z.infer<T> {
  const result = schema.safeParse(source);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new InvalidEnvironmentError(`Invalid environment: ${first ? formatIssue(first) : 'unknown error'}`);
  }
  return result.data;
}

const listenerSchema = z.object(listenerShape);
export type ListenerEnv = z.infer<typeof listenerSchema>;

/** The listener's settings from `source` (the server in front of Next reads only these). */
export function parseListenerEnv(source: Record<string, string | undefined>): ListenerEnv {
  return parseWith(listenerSchema, source);
}
