import type { Role, SandboxLevelDriver } from '@looplane/shared';
import type { JsonValue, ToolArgs } from '../events/json-object';
import type { HeldEffect } from '../events/workspace-effect';

// Declared with the events that carry them (a layer below the ports).
export type { JsonValue, ToolArgs };

export interface ToolInvocation {
  callId: string;
  name: string;
  args: ToolArgs;
  /** A human approved this call before it ran (an effect rule's require_approval is then covered). */
  approved?: boolean;
  /** The isolation the policy's deciding rule requires (`policy.decided`'s `isolation`): the sandbox runs it at that level or refuses. */
  isolation?: { level: SandboxLevelDriver; ruleId: string | null };
}

/** What the policy's effect rules decided about a result they did not let stand. */
export interface EffectVerdict {
  decision: 'deny' | 'require_approval';
  reason: string;
  ruleId?: string;
  role?: Role;
  risk?: 'low' | 'medium' | 'high';
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
  /**
   * Set when the policy's effect rules did not let the result stand: the workspace was put back,
   * and `held.commit` keeps what the call made (no `commit` then).
   */
  held?: HeldEffect & { verdict: EffectVerdict };
  /**
   * Set when nothing ran because this worker cannot give the call the isolation `level` it needs
   * and the run waits for one that can (`whenIsolationUnavailable: wait`): recorded as
   * `tool.deferred`, not as a result. `reason` says what asked for the level and what this worker has.
   */
  deferred?: { level: SandboxLevelDriver; reason: string };
}

/**
 * Runs catalogue tools (in the sandbox, in production). Return `{ ok: false }` for a tool failure;
 * throw only when the infrastructure failed: the engine then stops with the call `started` and
 * treats it as interrupted on the next drive.
 */
export interface ToolRunner {
  run(call: ToolInvocation, options?: { signal?: AbortSignal }): Promise<ToolResult>;
  /**
   * Puts the session's workspace at a held result an approver accepted (idempotent: a retry after
   * a crash applies it again). Runners whose tools never hold results need not implement it.
   */
  applyHeld?(call: ToolInvocation & { commit: string }, options?: { signal?: AbortSignal }): Promise<void>;
}
