import { resolveLimits, type ExecResult, type SandboxDriver, type SandboxLimitsInput, type Workspace } from '@looplane/sandbox';
import { stdinFor, type McpRequest } from './mcp-wire';

/** A stdio server as registered: the program and its arguments. */
export interface StdioServer {
  name: string;
  command: string;
  args: string[];
}

// A server process lives for one exchange; a listing or a call that takes longer is stuck.
const DEFAULT_WALL_MS = 60_000;

/**
 * Runs one MCP exchange with a stdio server inside the sandbox, in `workspace`: the same driver,
 * limits and network (none, or the run's egress proxy) as every other sandboxed process.
 */
export async function execMcp(
  driver: SandboxDriver,
  workspace: Workspace,
  server: StdioServer,
  request: McpRequest,
  options: { limits?: SandboxLimitsInput; egress?: { socketPath: string }; signal?: AbortSignal } = {},
): Promise<ExecResult> {
  const limits = resolveLimits({ wallTimeMs: DEFAULT_WALL_MS, ...options.limits });
  return driver.exec(
    {
      argv: [server.command, ...server.args],
      workspace,
      stdin: stdinFor(request),
      limits,
      ...(options.egress ? { egress: options.egress } : {}),
    },
    options.signal ? { signal: options.signal } : {},
  );
}

/** One line on why an exchange produced no answer (for the model or the manifest's error). */
export function describeExec(result: ExecResult): string {
  if (result.killedBy) return `the MCP server was stopped (${result.killedBy})`;
  if (result.oomKilled) return 'the MCP server ran out of memory';
  // A crash's telling line is the one naming the error; otherwise the last words it wrote.
  const lines = result.stderr
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '');
  const tail = (lines.find((line) => /\bError\b/.test(line)) ?? lines.slice(-3).join(' | ')).slice(0, 500);
  return `the MCP server exited with ${result.exitCode ?? result.signal}${tail ? `: ${tail}` : ''}`;
}
