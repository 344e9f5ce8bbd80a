import type { PgPool } from '@looplane/db';
import { createDbOnPool } from '@looplane/db';
import type { Logger } from 'pino';
import type { WorkerEnv } from '../env';
import type { Shutdown } from '../shutdown';

// Finished runs are exported within this long.
const EXPORT_INTERVAL_MS = 2000;

/** The OTLP endpoint tracing is on for, or null: LOOPLANE_OTEL_ENDPOINT wins over the standard variable. */
function tracingEndpoint(env: Pick<WorkerEnv, 'LOOPLANE_OTEL_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT'>): string | null {
  return env.LOOPLANE_OTEL_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? null;
}

/**
 * Starts exporting run traces when an endpoint is configured. Off by default, and then the tracing
 * code is never loaded: it is imported dynamically only here, only when tracing is on.
 */
export async function maybeStartTracing(deps: {
  env: Pick<WorkerEnv, 'LOOPLANE_OTEL_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT'>;
  pool: PgPool;
  logger: Logger;
  shutdown?: Shutdown;
  intervalMs?: number;
}): Promise<{ once(): Promise<number>; stop(): Promise<void> } | null> {
  const endpoint = tracingEndpoint(deps.env);
  if (!endpoint) return null;
  const { RunTracer } = await import('@looplane/telemetry/tracing');
  const tracer = new RunTracer({
    db: createDbOnPool(deps.pool),
    endpoint,
    service: 'looplane-worker',
    onError: (error, runId) => deps.logger.warn({ err: error, runId }, 'run trace export failed'),
  });
  tracer.start(deps.intervalMs ?? EXPORT_INTERVAL_MS);
  deps.shutdown?.register('flush', 'run traces', () => tracer.stop());
  deps.logger.info({ endpoint }, 'exporting run traces over OTLP/HTTP');
  return tracer;
}
