/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** JSON object arguments of a tool call. */
export type ToolArgs = { [key: string]: JsonValue };

export interface ToolInvocation {
  callId: string;
  name: string;
  args: ToolArgs;
}

/** A tool's own failure is a result (`ok: false`) the model gets to see. */
export interface ToolResult {
  ok: boolean;
  output: string;
  /** The workspace commit after a mutating call (recorded so a fork can start from these files). */
  commit?: string;
  /** The sandboxed process's exit code, when the tool ran one. */
  exitCode?: number;
}

/**
 * Runs catalogue tools (in the sandbox, in production). Return `{ ok: false }` for a tool failure;
 * throw only when the infrastructure failed: the engine then stops with the call `started` and
 * treats it as interrupted on the next drive.
 */
export interface ToolRunner {
  run(call: ToolInvocation, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}
