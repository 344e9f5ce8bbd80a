import { AppError, type AppErrorCode } from '@looplane/shared';
import type { ToolArgs, ToolResult, ToolSpec } from '@looplane/engine';
import { z } from 'zod';
import type { SandboxLimitsInput } from '../limits';
import type { EffectGate } from '../workspace/workspace-manager';

/** A tool result; mutating tools add the workspace commit to store in the call's `tool.finished` event. */
export interface SandboxToolResult extends ToolResult {
  commit?: string;
}

/** Who is calling: everything a call needs that the worker knows per session and per run. */
export interface SandboxToolCall {
  /** The session whose workspace the call works in (created or forked by the worker beforehand). */
  sessionId: string;
  /** Aborted on cancel: the sandboxed process tree is killed and `run` throws. */
  signal?: AbortSignal;
  /** Named in the commit message, so a commit can be traced to its call. */
  callId?: string;
  /** This run's sandbox limits from policy; missing fields take the factory's defaults. */
  limits?: SandboxLimitsInput;
  /**
   * This run's egress proxy; without it neither shell nor http_request reach any network.
   * `socketPath` is bound into the sandbox (every request decided by the policy's rules);
   * `workerSocketPath` serves the worker's own clients for calls the policy already decided.
   */
  egress?: { socketPath: string; workerSocketPath?: string };
  /** Decides a mutating call's effect before its commit is kept (the team policy's effect rules). */
  effectGate?: EffectGate;
}

/**
 * A built-in tool: its catalogue entry and how to run it. `run` resolves with `ok: false` for a
 * tool failure (bad arguments, a refused path, a non-zero exit) and throws only when the
 * infrastructure failed or the call was cancelled.
 */
export interface SandboxTool {
  spec: ToolSpec;
  run(args: ToolArgs, call: SandboxToolCall): Promise<SandboxToolResult>;
}

const TOOL_FAILURES = new Set<AppErrorCode>(['BAD_REQUEST', 'NOT_FOUND', 'FORBIDDEN', 'CONFLICT']);

// File-system errors an argument can cause (a missing file, a directory given as a file).
const FS_FAILURES = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'EEXIST', 'ENAMETOOLONG', 'ENOTEMPTY']);

/** Builds a tool whose JSON schema is generated from its zod schema, so the two cannot drift. */
export function defineTool<S extends z.ZodObject>(
  spec: { name: string; description: string; idempotent: boolean },
  args: S,
  run: (args: z.output<S>, call: SandboxToolCall) => Promise<SandboxToolResult>,
): SandboxTool {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(args) as Record<string, unknown>;
  return {
    spec: { ...spec, parameters: parameters as ToolSpec['parameters'] },
    async run(raw, call) {
      const parsed = args.safeParse(raw);
      if (!parsed.success) return { ok: false, output: `invalid arguments: ${z.prettifyError(parsed.error)}` };
      try {
        return await run(parsed.data, call);
      } catch (error) {
        // A refused path or a missing file is the model's to see; anything else is an infrastructure failure.
        if (call.signal?.aborted) throw error;
        if (error instanceof AppError && TOOL_FAILURES.has(error.code)) return { ok: false, output: error.message };
        const code = (error as NodeJS.ErrnoException).code;
        // The message names host paths, which the model has no business seeing: the code is enough.
        if (code && FS_FAILURES.has(code)) return { ok: false, output: `file system error: ${code}` };
        throw error;
      }
    },
  };
}

/** Throws the abort reason when the call was cancelled (the engine then records nothing for it). */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new AppError('INTERNAL', 'tool call cancelled');
}
