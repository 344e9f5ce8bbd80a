import type { RunSandbox, ToolResult } from '@looplane/engine';
import type { SandboxLevelDriver } from '@looplane/shared';
import { IsolationUnavailableError } from '../sessions/workspace-unavailable';

/**
 * What a call refused for its isolation level becomes, by the template's
 * `whenIsolationUnavailable`: `refuse-call` (default) a failed result the model reads; `fail-run`
 * the run's end (thrown, handled by SessionRun); `wait` a deferral when another worker could give
 * the level (the runtime hands the run to one). Nothing of the call has run in any case.
 */
export function isolationRefusal(refusal: { output: string; level?: SandboxLevelDriver }, sandbox: RunSandbox | undefined): ToolResult {
  const when = sandbox?.whenIsolationUnavailable;
  const reason = refusal.output.replace(/^not run: /, '');
  if (when === 'fail-run') throw new IsolationUnavailableError(`a call was not run: ${reason}`);
  if (when === 'wait' && refusal.level) return { ok: false, output: refusal.output, deferred: { level: refusal.level, reason } };
  return { ok: false, output: refusal.output };
}
