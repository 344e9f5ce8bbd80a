import type { ModelPort } from '@looplane/engine';
import { Counter, Histogram, type Registry } from 'prom-client';

/** Per-process model call metrics (the worker makes the calls, so it is the one that can time them). */
export class ModelMetrics {
  private readonly latency: Histogram<'endpoint' | 'outcome'>;
  private readonly tokens: Counter<'endpoint' | 'direction'>;

  constructor(registry: Registry) {
    this.latency = new Histogram({
      name: 'looplane_model_call_seconds',
      help: 'Model call latency by endpoint and outcome (ok, error, aborted)',
      labelNames: ['endpoint', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    });
    this.tokens = new Counter({
      name: 'looplane_model_tokens_total',
      help: 'Model tokens by endpoint and direction (input, output)',
      labelNames: ['endpoint', 'direction'],
      registers: [registry],
    });
  }

  /** Wraps a model port so each call is timed and its token usage counted under `endpoint`. */
  instrument(port: ModelPort, endpoint: string): ModelPort {
    return {
      complete: async (request, options) => {
        const stop = this.latency.startTimer({ endpoint });
        try {
          const result = await port.complete(request, options);
          stop({ outcome: result.ok ? 'ok' : 'error' });
          if (result.ok && result.usage) {
            this.tokens.inc({ endpoint, direction: 'input' }, result.usage.inputTokens);
            this.tokens.inc({ endpoint, direction: 'output' }, result.usage.outputTokens);
          }
          return result;
        } catch (error) {
          stop({ outcome: 'aborted' });
          throw error;
        }
      },
    };
  }
}
