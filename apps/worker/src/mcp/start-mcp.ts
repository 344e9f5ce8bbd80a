import { createDbOnPool, type PgPool } from '@looplane/db';
import type { Logger } from 'pino';
import type { WorkerSandbox } from '../sandbox/worker-sandbox';
import type { Shutdown } from '../shutdown';
import { createMcpToolHandler } from './mcp-call';
import { McpDiscovery } from './mcp-discovery';
import type { McpToolRegistry } from './mcp-tool-registry';

// New servers are listed within this long of being registered.
const DISCOVERY_INTERVAL_MS = 5000;

/** MCP in the worker: `mcp:` calls run in the sandbox, and new servers get their tools listed. */
export function startMcp(deps: { pool: PgPool; sandbox: WorkerSandbox; tools: McpToolRegistry; logger: Logger; shutdown: Shutdown }): void {
  const db = createDbOnPool(deps.pool);
  deps.tools.routeMcp(createMcpToolHandler({ db, sandbox: deps.sandbox }));
  const discovery = new McpDiscovery({ db, sandbox: deps.sandbox, logger: deps.logger });
  discovery.start(DISCOVERY_INTERVAL_MS);
  deps.shutdown.register('stop-intake', 'MCP discovery', () => discovery.stop());
}
