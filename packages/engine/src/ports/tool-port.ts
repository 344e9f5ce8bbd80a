/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** JSON object arguments of a tool call. */
export type ToolArgs = { [key: string]: JsonValue };

export interface ToolInvocation {
  callId: string;
  name: string;
  args: ToolArgs;
}

/** A decision of the run's egress proxy made during a call; recorded as `egress.decided` before `tool.finished`. */
export interface EgressRecord {
  kind: 'connect' | 'http';
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  reason: string;
  /** Names (never values) of headers the proxy injected. */
  injectedHeaders: string[];
}

/** A tool's own failure is a result (`ok: false`) the model gets to see. */
export interface ToolResult {
  ok: boolean;
  output: string;
  /** The workspace commit after a mutating call (recorded so a fork can start from these files). */
  commit?: string;
  /** The sandboxed process's exit code, when the tool ran one. */
  exitCode?: number;
  /** What the egress proxy decided during the call, in order. */
  egress?: EgressRecord[];
  /** Writes the call made to the run's shared memory, recorded as `memory.written` before `tool.finished`. */
  memoryWrites?: { key: string; value: JsonValue; version: number }[];
}

/**
 * Runs catalogue tools (in the sandbox, in production). Return `{ ok: false }` for a tool failure;
 * throw only when the infrastructure failed: the engine then stops with the call `started` and
 * treats it as interrupted on the next drive.
 */
export interface ToolRunner {
  run(call: ToolInvocation, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}
