import type { SandboxLimitsInput } from '../limits';
import type { SandboxDriver } from '../types';
import type { WorkspaceManager } from '../workspace/workspace-manager';
import { fileTools } from './file-tools';
import { httpTool } from './http-tool';
import { shellTools } from './shell-tools';
import type { SandboxTool } from './tool';

export interface SandboxToolsOptions {
  driver: SandboxDriver;
  workspaces: WorkspaceManager;
  /** Defaults for limits a call does not set (each call may pass its run's policy limits). */
  limits?: SandboxLimitsInput;
}

/**
 * The built-in tools, made once per worker: shell, read_file, write_file, edit_file, list_files,
 * search_files, http_request. Register each under `tool.spec.name` and run it with
 * `tool.run(args, { sessionId, signal, callId, limits, egress })`; a mutating tool returns the
 * workspace `commit` to store in the call's `tool.finished` event.
 */
export function createSandboxTools(options: SandboxToolsOptions): SandboxTool[] {
  const deps = { driver: options.driver, workspaces: options.workspaces, limits: options.limits ?? {} };
  const [shell, search] = shellTools(deps);
  const [read, write, edit, list] = fileTools(deps);
  return [shell!, read!, write!, edit!, list!, search!, httpTool(deps)];
}
