import type { ToolArgs, ToolInvocation, ToolResult, ToolRunner } from '@looplane/engine';
import { AppError } from '@looplane/shared';

/** Where a tool call runs: the session it belongs to, and the signal that cancels it. */
export interface ToolContext {
  runId: string;
  sessionId: string;
  teamId: string;
  agentId: string | null;
  /** Aborted on cancel, interrupt or a hard shutdown: the tool must stop and kill its process tree. */
  signal: AbortSignal | undefined;
}

/**
 * A tool implementation. Return `{ ok: false }` for a failure the model should see; throw only when
 * the infrastructure failed (the engine then treats the call as interrupted on the next drive).
 */
export type ToolHandler = (args: ToolArgs, call: ToolInvocation, context: ToolContext) => Promise<ToolResult>;

/**
 * The worker's tools, keyed by name. Which tools a run may call is the run config's catalogue
 * (`run.started`); this registry is what this worker can execute. Tools plug in with one
 * `register` call each (the sandbox tools register in `registerBuiltinTools`).
 */
export class ToolRegistry {
  private readonly handlers = new Map<string, ToolHandler>();

  /** Adds a tool; a name can be registered once. */
  register(name: string, handler: ToolHandler): this {
    if (this.handlers.has(name)) throw new AppError('INTERNAL', `tool ${name} is registered twice`);
    this.handlers.set(name, handler);
    return this;
  }

  /** Names of the registered tools, sorted. */
  names(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /** The engine's tool port for one session. */
  runnerFor(context: Omit<ToolContext, 'signal'>): ToolRunner {
    return {
      run: async (call, options) => {
        const handler = this.handlers.get(call.name);
        if (!handler) return { ok: false, output: `no tool named ${call.name} is installed on this worker` };
        options?.signal?.throwIfAborted();
        return handler(call.args, call, { ...context, signal: options?.signal });
      },
    };
  }
}
