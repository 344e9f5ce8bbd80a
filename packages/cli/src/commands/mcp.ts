import { unwrap } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

const usage = `Usage: looplane mcp add NAME --command PROGRAM [--arg ARG]... [--json] [--team SLUG]
       looplane mcp add NAME --url URL [--json] [--team SLUG]
       looplane mcp list [--json] [--team SLUG]
       looplane mcp remove NAME [--json] [--team SLUG]
       looplane mcp refresh NAME [--json] [--team SLUG]

Registers the MCP servers the team's agents may use. Their tools reach agents as
mcp:NAME:TOOL, under the team's policy and approvals. A --command server runs inside each
run's sandbox (no network unless the policy allows it); a --url server (streamable HTTP) is
reached only through the run's egress proxy, so its host must be among the agent's egress
hosts and on the team policy's egress allowlist.
A worker lists a new server's tools within seconds (mcp list shows them); refresh asks for a new
listing after the server's program changed.

Options:
  --command PROGRAM   a stdio server: the program to start in the sandbox
  --arg ARG           one argument of the program (repeat for several, in order; one that
                      starts with a dash goes as --arg=-e)
  --url URL           a streamable HTTP server
  --json              print the result as JSON (add/remove: one object; list: an array)
  --team SLUG         the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the admin role (list: viewer)

Exit codes: 0 done, 1 refused or failed (name taken, not found), 2 wrong usage.`;

/** `looplane mcp add/list/remove`. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Register, list, refresh or remove MCP servers (mcp add|list|refresh|remove)',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        command: { type: 'string' },
        arg: { type: 'string', multiple: true },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
        team: { type: 'string' },
      },
      true,
    );
    const [sub, name, ...extra] = positionals;
    if (sub !== 'add' && sub !== 'list' && sub !== 'remove' && sub !== 'refresh') {
      throw new UsageError(sub ? `unknown mcp subcommand "${sub}" (add, list, refresh or remove)` : 'give a subcommand: add, list, refresh or remove');
    }
    if (sub === 'list' && name !== undefined) throw new UsageError('mcp list takes no NAME');
    if (sub !== 'list' && (!name || extra.length > 0)) throw new UsageError('give exactly one NAME');
    if (sub === 'add' && (values.command === undefined) === (values.url === undefined))
      throw new UsageError('give --command PROGRAM or --url URL (one of them)');
    if (sub === 'add' && values.url !== undefined && values.arg) throw new UsageError('--arg goes with --command, not --url');
    if (sub !== 'add' && (values.command !== undefined || values.url !== undefined || values.arg))
      throw new UsageError(`--command, --arg and --url go with mcp add`);

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      if (sub === 'add') {
        const body =
          values.url !== undefined
            ? { name: name!, transport: 'http' as const, url: values.url }
            : { name: name!, transport: 'stdio' as const, command: values.command!, ...(values.arg ? { args: values.arg } : {}) };
        const server = await unwrap(session.api.POST('/mcp-servers', { body }));
        if (values.json) printer.raw(JSON.stringify(server));
        else printer.info(`Added MCP server ${server.name} (${server.id}); its tools are mcp:${server.name}:<tool>.`);
      } else if (sub === 'list') {
        const servers = await unwrap(session.api.GET('/mcp-servers'));
        if (values.json) printer.raw(JSON.stringify(servers));
        else if (servers.length === 0) printer.info('No MCP servers.');
        else {
          for (const s of servers) {
            const state = s.toolsError
              ? `listing failed: ${s.toolsError}`
              : s.toolsCheckedAt
                ? `${s.tools.length} tools`
                : 'waiting for a worker to list its tools';
            printer.info(`${s.name}  ${s.transport.padEnd(5)}  ${s.transport === 'http' ? s.url : [s.command, ...s.args].join(' ')}  (${state})`);
          }
        }
      } else {
        const servers = await unwrap(session.api.GET('/mcp-servers'));
        const server = servers.find((s) => s.name === name);
        if (!server) {
          printer.error(`no MCP server named "${name}" in team ${session.team.slug}`);
          return EXIT.failure;
        }
        if (sub === 'refresh') {
          const refreshed = await unwrap(session.api.POST('/mcp-servers/{serverId}/refresh', { params: { path: { serverId: server.id } } }));
          if (values.json) printer.raw(JSON.stringify(refreshed));
          else printer.info(`Asked the workers to list the tools of ${name} again.`);
        } else {
          const removed = await unwrap(session.api.DELETE('/mcp-servers/{serverId}', { params: { path: { serverId: server.id } } }));
          if (values.json) printer.raw(JSON.stringify({ ...removed, name }));
          else printer.info(`Removed MCP server ${name}.`);
        }
      }
      return EXIT.ok;
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
