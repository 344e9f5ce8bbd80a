import type { WorkerSandbox } from '../sandbox/worker-sandbox';
import type { ToolRegistry } from './tool-registry';
import { registerDeliveryTools } from '../delivery/delivery-tools';

/**
 * Registers the tools every worker offers: the sandbox's built-in tools (shell, read_file,
 * write_file, edit_file, list_files, search_files, http_request), each run in the session's
 * workspace through the worker's sandbox driver. Their idempotency comes from the tool itself
 * (read_file, list_files and search_files may run twice; the others are reported interrupted).
 * The session's egress proxy stops when its job ends; restores (`sessions.restore`) put files
 * back in the same workspaces. Without a sandbox, nothing is registered.
 */
export function registerBuiltinTools(registry: ToolRegistry, sandbox?: WorkerSandbox): ToolRegistry {
  if (!sandbox) return registry;
  for (const tool of sandbox.tools) {
    registry.register(tool.spec.name, (args, call, context) => sandbox.run(tool, args, call, context), { idempotent: tool.spec.idempotent });
  }
  registry.applyHeldWith((call, context) => sandbox.applyHeld(context.sessionId, call.commit));
  registry.restoreFilesWith((restore) => sandbox.restoreFiles(restore));
  registry.offerIsolationWith(() => sandbox.isolationLevels());
  if (sandbox.seeder) registry.seedWorkspacesWith(sandbox.seeder);
  if (sandbox.delivery) registerDeliveryTools(registry, sandbox.delivery);
  return registry.onSessionEnd(({ sessionId }) => sandbox.endSession(sessionId));
}
