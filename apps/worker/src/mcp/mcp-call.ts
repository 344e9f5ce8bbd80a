import type { Db } from '@looplane/db';
import type { SandboxTool } from '@looplane/sandbox';
import { z } from 'zod';
import type { WorkerSandbox } from '../sandbox/worker-sandbox';
import type { ToolHandler } from '../tools/tool-registry';
import { describeExec, execMcp } from './mcp-exec';
import { exchangeHttp } from './mcp-http-client';
import { parseToolCall, resultText } from './mcp-wire';

const NAME = /^mcp:([a-z0-9-]{1,40}):([a-zA-Z0-9_.-]{1,64})$/;

/** `mcp:<server>:<tool>` → its parts; null for any other name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  const match = NAME.exec(name);
  return match ? { server: match[1]!, tool: match[2]! } : null;
}

const argsSchema = z.array(z.string()).catch([]);

/**
 * The handler of every `mcp:<server>:<tool>` call. The engine has already applied the team's
 * policy (and waited for an approval when it said so) and recorded the call as events; this runs
 * it: the server is looked up in the caller's team at call time (a removed server fails the call),
 * then a stdio server is started inside the session's sandbox (it sees the session's workspace at
 * /workspace) and an HTTP server is reached through the run's egress proxy.
 */
export function createMcpToolHandler(deps: { db: Db; sandbox: WorkerSandbox }): ToolHandler {
  return async (args, call, context) => {
    const parts = parseMcpToolName(call.name);
    if (!parts) return { ok: false, output: `${call.name} is not an MCP tool name (mcp:<server>:<tool>)` };
    const server = await deps.db.mcpServer.findUnique({ where: { teamId_name: { teamId: context.teamId, name: parts.server } } });
    if (!server) return { ok: false, output: `the MCP server ${parts.server} is not registered in this team (any more)` };
    if (server.transport === 'http' && server.url) return deps.sandbox.run(httpTool(call.name, parts, server.url), args, call, context);
    if (!server.command) return { ok: false, output: `the MCP server ${parts.server} has no command` };
    const stdio = { name: server.name, command: server.command, args: argsSchema.parse(server.args) };
    const { driver, workspaces } = deps.sandbox;
    // A sandbox tool, so the worker's sandbox applies its usual checks, workspace, limits and egress proxy.
    const tool: SandboxTool = {
      spec: { name: call.name, description: '', parameters: { type: 'object', properties: {} }, idempotent: false },
      run: (toolArgs, sandboxCall) =>
        workspaces.withLock(sandboxCall.sessionId, async () => {
          const workspace = await workspaces.get(sandboxCall.sessionId);
          const result = await execMcp(
            driver,
            workspace,
            stdio,
            { method: 'tools/call', name: parts.tool, arguments: toolArgs },
            {
              ...(sandboxCall.limits ? { limits: sandboxCall.limits } : {}),
              ...(sandboxCall.egress ? { egress: sandboxCall.egress } : {}),
              ...(sandboxCall.signal ? { signal: sandboxCall.signal } : {}),
            },
          );
          sandboxCall.signal?.throwIfAborted();
          const parsed = parseToolCall(result.stdout);
          if (!parsed.ok) return { ok: false, output: `${parsed.error}; ${describeExec(result)}` };
          // The server may have changed files: record the work tree like any mutating tool does.
          const { commit, changed } = await workspaces.commit(sandboxCall.sessionId, `${call.name} ${call.callId}`);
          return { ok: parsed.result.isError !== true, output: resultText(parsed.result), ...(changed ? { commit } : {}) };
        }),
    };
    return deps.sandbox.run(tool, args, call, context);
  };
}

/**
 * An HTTP server's call as a sandbox tool: the worker sandbox gives it the run's egress proxy
 * (when the run's egress list allows the server's host), and the request goes only through it.
 */
function httpTool(name: string, parts: { server: string; tool: string }, url: string): SandboxTool {
  return {
    spec: { name, description: '', parameters: { type: 'object', properties: {} }, idempotent: false },
    async run(toolArgs, sandboxCall) {
      if (!sandboxCall.egress) {
        return {
          ok: false,
          output: `the MCP server ${parts.server} is reached over HTTP through the run's egress proxy, and this run has no network: add ${new URL(url).host} to the agent's egress hosts and the team policy's egress allowlist`,
        };
      }
      // The worker's own socket: the policy decided this call as mcp:<server>:<tool>, not as http_request.
      const socketPath = sandboxCall.egress.workerSocketPath ?? sandboxCall.egress.socketPath;
      const answer = await exchangeHttp(url, socketPath, { method: 'tools/call', name: parts.tool, arguments: toolArgs }, sandboxCall.signal);
      if (!answer.ok) return { ok: false, output: answer.error };
      if (!('result' in answer)) return { ok: false, output: 'the MCP server answered a call with a tool list' };
      return { ok: answer.result.isError !== true, output: resultText(answer.result) };
    },
  };
}
