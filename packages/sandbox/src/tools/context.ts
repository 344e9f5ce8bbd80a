import { AppError } from '@looplane/shared';
import type { RefusedPath } from '@looplane/workspaces';
import { resolveLimits, type SandboxLimits, type SandboxLimitsInput } from '../limits';
import type { SandboxDriver } from '../types';
import type { Workspace, WorkspaceManager } from '../workspace/workspace-manager';
import { recordedEffect } from '../workspace/workspace-effect';
import type { SandboxToolCall, SandboxToolResult } from './tool';

/** What every built-in tool shares, whichever session calls it. */
export interface ToolDeps {
  driver: SandboxDriver;
  workspaces: WorkspaceManager;
  /** Defaults for limits a call does not set. */
  limits: SandboxLimitsInput;
}

/** What the model is told about entries removed after its call (they would have broken the commit, or could not be kept). */
function refusedNote(refused: readonly RefusedPath[]): string {
  if (refused.length === 0) return '';
  const shown = refused.slice(0, 20).map((entry) => `\n- ${entry.path}: ${entry.reason}`);
  const more = refused.length > 20 ? `\n- and ${refused.length - 20} more` : '';
  return `\n[removed from the workspace after the call, as it cannot be kept:${shown.join('')}${more}]`;
}

/** The limits of one call: the run's, over the worker's defaults. */
export function callLimits(deps: ToolDeps, call: SandboxToolCall): SandboxLimits {
  return resolveLimits({ ...deps.limits, ...call.limits });
}

/**
 * Runs one call with the session's workspace locked. A mutating call ends with a commit whose id
 * is returned, so the worker can store it in the call's `tool.finished` event.
 */
export async function inWorkspace<T extends { ok: boolean; output: string }>(
  deps: ToolDeps,
  call: SandboxToolCall,
  mutating: string | null,
  fn: (workspace: Workspace) => Promise<T>,
): Promise<T & Pick<SandboxToolResult, 'commit' | 'held'>> {
  return deps.workspaces.withLock(call.sessionId, async () => {
    // A missing workspace is the worker's mistake (it creates or forks one per session), not the model's.
    const workspace = await deps.workspaces.get(call.sessionId).catch((error: unknown) => {
      throw new AppError('INTERNAL', (error as Error).message, { cause: error });
    });
    const result = await fn(workspace);
    if (!mutating) return result;
    const committed = await deps.workspaces.commitGoverned(call.sessionId, `${mutating}${call.callId ? ` ${call.callId}` : ''}`, call.effectGate ?? null);
    if ('held' in committed) {
      const { commit, base, effect, verdict } = committed.held;
      return { ...result, held: { commit, baseCommit: base, effect: recordedEffect(effect), verdict } };
    }
    return { ...result, output: result.output + refusedNote(committed.refused), commit: committed.commit };
  });
}
