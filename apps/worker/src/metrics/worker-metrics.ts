import { createDbOnPool, type PgPool } from '@looplane/db';
import { createSessionQueue } from '@looplane/queue';
import { ModelMetrics, Registry, registerClusterMetrics } from '@looplane/telemetry';
import type { Redis } from 'ioredis';
import { Gauge, Histogram } from 'prom-client';
import type { ToolHandler } from '../tools/tool-registry';
import { registerSupervisorRestarts } from './supervisor-restarts';

export interface WorkerMetricsOptions {
  pool: PgPool;
  redis: Redis;
  queuePrefix: string;
  workerId: string;
  /** LOOPLANE_SUPERVISOR_STATE: the restart counts of `looplane start`, when it runs this worker. */
  supervisorState?: string | undefined;
}

/**
 * The worker's Prometheus registry: the cluster gauges (from Postgres and the queue) plus what only
 * this process can see: its own loops, the model calls it times, the sandboxed calls it runs.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  readonly models: ModelMetrics;
  private readonly sandboxCalls: Histogram<'tool' | 'outcome'>;
  private activeLoops: () => number = () => 0;

  constructor(options: WorkerMetricsOptions) {
    this.registry.setDefaultLabels({ worker: options.workerId });
    const queue = createSessionQueue(options.redis, { prefix: options.queuePrefix });
    queue.on('error', () => undefined); // a scrape during a Redis outage fails that scrape only
    registerClusterMetrics(this.registry, {
      db: createDbOnPool(options.pool),
      queueCounts: () => queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
    });
    this.models = new ModelMetrics(this.registry);
    registerSupervisorRestarts(this.registry, options.supervisorState);
    const self = this;
    new Gauge({
      name: 'looplane_worker_active_loops',
      help: 'Agent loops running in this worker process',
      registers: [this.registry],
      collect() {
        this.set(self.activeLoops());
      },
    });
    this.sandboxCalls = new Histogram({
      name: 'looplane_sandbox_call_seconds',
      help: 'Sandboxed tool calls from sandbox start to exit, by tool and outcome',
      labelNames: ['tool', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers: [this.registry],
    });
  }

  /** Reports the runtime's loop count once the runtime exists (it starts after the registry). */
  watchLoops(count: () => number): void {
    this.activeLoops = count;
  }

  /** Wraps a sandboxed tool's handler so each call is timed (start of the sandbox to its exit). */
  timeSandboxCall(tool: string, handler: ToolHandler): ToolHandler {
    return async (args, call, context) => {
      const stop = this.sandboxCalls.startTimer({ tool });
      try {
        const result = await handler(args, call, context);
        stop({ outcome: result.ok ? 'ok' : 'error' });
        return result;
      } catch (error) {
        stop({ outcome: 'interrupted' });
        throw error;
      }
    };
  }

  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
