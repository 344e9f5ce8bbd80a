import type { ToolRunner } from '@looplane/engine';
import { TimedToolRegistry } from '../metrics/timed-tool-registry';
import type { ToolContext, ToolHandler } from '../tools/tool-registry';

/**
 * The worker's tool registry: the registered tools by name, plus every `mcp:<server>:<tool>` name
 * routed to one MCP handler (those names are the team's, known only at call time).
 */
export class McpToolRegistry extends TimedToolRegistry {
  private mcp: ToolHandler | null = null;

  /** Routes `mcp:` calls to `handler` (set once the sandbox is up). */
  routeMcp(handler: ToolHandler): void {
    this.mcp = this.timed('mcp', handler);
  }

  override runnerFor(context: Omit<ToolContext, 'signal'>): ToolRunner {
    const registered = super.runnerFor(context);
    return {
      ...registered,
      run: async (call, options) => {
        if (!call.name.startsWith('mcp:') || !this.mcp) return registered.run(call, options);
        options?.signal?.throwIfAborted();
        return this.mcp(call.args, call, { ...context, signal: options?.signal });
      },
    };
  }
}
