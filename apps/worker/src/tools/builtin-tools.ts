import type { ToolRegistry } from './tool-registry';

/**
 * Registers the tools every worker offers. None yet: the sandboxed tools (files, shell, tests)
 * arrive with the sandbox and register here, one `registry.register(name, handler)` each.
 */
export function registerBuiltinTools(registry: ToolRegistry): ToolRegistry {
  return registry;
}
