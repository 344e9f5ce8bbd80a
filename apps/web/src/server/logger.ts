import 'server-only';
import pino, { type Logger } from 'pino';
import { env } from '@/env';

let instance: Logger | undefined;

/** The web process's pino logger (JSON to stdout). Secrets are redacted by path. */
export function logger(): Logger {
  instance ??= pino({
    name: 'looplane-web',
    level: env().LOG_LEVEL ?? 'info',
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'headers.cookie', 'apiKey', '*.apiKey', '*.*.apiKey'],
      censor: '[redacted]',
    },
  });
  return instance;
}
