import { ToolRegistry, type ToolHandler, type ToolMetadata } from '../tools/tool-registry';
import type { WorkerMetrics } from './worker-metrics';

/** A tool registry whose every handler is timed into `looplane_sandbox_call_seconds`. */
export class TimedToolRegistry extends ToolRegistry {
  constructor(private readonly metrics: WorkerMetrics) {
    super();
  }

  override register(name: string, handler: ToolHandler, metadata: ToolMetadata = {}): this {
    return super.register(name, this.timed(name, handler), metadata);
  }

  /** `handler`, timed under the `tool` label `name`. */
  protected timed(name: string, handler: ToolHandler): ToolHandler {
    return this.metrics.timeSandboxCall(name, handler);
  }
}
