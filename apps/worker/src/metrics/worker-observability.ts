import type { PgPool } from '@looplane/db';
import { createModelForEndpoint } from '@looplane/models';
import { modelEndpointPolicy } from '@looplane/shared/net';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WorkerEnv } from '../env';
import type { CreateModel } from '../ports/model-factory';
import type { Shutdown } from '../shutdown';
import { startMetricsServer } from './metrics-server';
import { McpToolRegistry } from '../mcp/mcp-tool-registry';
import { WorkerMetrics } from './worker-metrics';

export interface WorkerObservability {
  /** Builds model ports that are timed, whose tokens are counted per endpoint, and that connect only where LOOPLANE_ENDPOINTS_ALLOW allows. */
  createModel: CreateModel;
  /** The tool registry to register tools into (every call timed). */
  tools: McpToolRegistry;
  /** Starts `/metrics` (when LOOPLANE_WORKER_METRICS_PORT is set) once the runtime runs. */
  attach(runtime: { readonly activeSessions: number }): Promise<void>;
}

/** Wires the worker's metrics into the process: model ports, tool registry, `/metrics` listener. */
export function createWorkerObservability(options: {
  env: Pick<
    WorkerEnv,
    'LOOPLANE_WORKER_METRICS_PORT' | 'LOOPLANE_METRICS_TOKEN' | 'QUEUE_PREFIX' | 'LOOPLANE_SUPERVISOR_STATE' | 'HOST' | 'LOOPLANE_ENDPOINTS_ALLOW'
  >;
  pool: PgPool;
  redis: Redis;
  workerId: string;
  logger: Logger;
  shutdown: Shutdown;
}): WorkerObservability {
  const { env, logger } = options;
  // Where model calls may connect: checked for every connection (LOOPLANE_ENDPOINTS_ALLOW).
  const endpointAddresses = modelEndpointPolicy(env.LOOPLANE_ENDPOINTS_ALLOW);
  const metrics = new WorkerMetrics({
    pool: options.pool,
    redis: options.redis,
    queuePrefix: env.QUEUE_PREFIX,
    workerId: options.workerId,
    supervisorState: env.LOOPLANE_SUPERVISOR_STATE,
  });
  return {
    createModel: (endpoint, apiKey) => metrics.models.instrument(createModelForEndpoint(endpoint, apiKey, endpointAddresses), endpoint.id),
    tools: new McpToolRegistry(metrics),
    async attach(runtime) {
      metrics.watchLoops(() => runtime.activeSessions);
      const port = env.LOOPLANE_WORKER_METRICS_PORT;
      const token = env.LOOPLANE_METRICS_TOKEN;
      if (port === undefined || !token) return;
      const server = await startMetricsServer({ port, host: env.HOST, token, render: () => metrics.render(), logger });
      options.shutdown.register('close', 'metrics listener', () => server.close());
      logger.info({ host: env.HOST, port: server.port }, 'metrics listening on /metrics');
    },
  };
}
