import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { unwrap, uploadArchive, type Schema } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import type { Printer } from '../printer';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { followRun } from '../remote/follow';
import { openRemoteSession, type RemoteSession } from '../remote/session';
import { workspaceChoice, type WorkspaceChoice } from '../remote/workspace-flags';

const usage = `Usage: looplane run (--agent NAME | --graph NAME) --goal TEXT [--follow] [--team SLUG] [workspace options] [budget options]

Starts a run of an agent, or of a swarm graph (its root node gets the goal). The goal may be a
slash command of the agent ("/triage the login bug"; of the root node's agent for a graph).
Prints the run id; with --follow, then prints its events until it finishes (like looplane tail).
The run's files come from a repository, an archive or another session's files when one of
--repo, --archive or --from-session is given; else from the agent's default (or none).

Options:
  --agent NAME          the agent template to run
  --graph NAME          the swarm graph to run (instead of --agent)
  --goal TEXT           what the agent should do (required)
  --follow              follow the run; exit 0 if it succeeds, 1 if it fails or is cancelled
  --json                print the run id (and with --follow, every event) as JSON lines
  --team SLUG           the team (default: the token's team)
  --max-tokens N        budget: tokens
  --max-cost USD        budget: model spend in dollars
  --max-tool-calls N    budget: tool calls
  --on-exceed wait|fail what the run does at a limit (default wait)

Workspace (one of --repo, --archive, --from-session):
  --repo URL            a repository to clone (https, ssh or git@host:path); the team
                        policy's workspace.sources must allow it
  --ref REF             with --repo: a branch, tag or commit (default the remote's HEAD)
  --secret NAME         with --repo: the team secret to fetch with (a token, or an ssh key)
  --depth N             with --repo: how much history to fetch (default 1)
  --archive PATH        a .tar, .tar.gz or .zip file: uploaded first, then unpacked as the files
  --from-session ID[@N] another session's files (at its event N; default its latest)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the operator role or higher (required)`;

/** The source to send: the flags' own, or an upload of the archive they name (read and uploaded now). */
async function workspaceOf(choice: WorkspaceChoice, session: RemoteSession, quiet: boolean, printer: Printer): Promise<Schema<'WorkspaceSource'> | undefined> {
  if (choice.kind === 'default') return undefined;
  if (choice.kind === 'source') return choice.source;
  const data = await readFile(choice.path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${choice.path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const upload = await uploadArchive(session.api, data, basename(choice.path));
  if (!quiet) printer.info(`Uploaded ${upload.filename} (${upload.files} files, ${upload.bytes} bytes) as ${upload.id}`);
  return { archive: { uploadId: upload.id } };
}

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number`);
  return n;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Start a run of an agent or a swarm graph (and follow it with --follow)',
  usage,
  async run({ args, printer }) {
    const { values } = parseCommandArgs(args, {
      agent: { type: 'string' },
      graph: { type: 'string' },
      goal: { type: 'string' },
      follow: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      team: { type: 'string' },
      'max-tokens': { type: 'string' },
      'max-cost': { type: 'string' },
      'max-tool-calls': { type: 'string' },
      'on-exceed': { type: 'string' },
      repo: { type: 'string' },
      ref: { type: 'string' },
      secret: { type: 'string' },
      depth: { type: 'string' },
      archive: { type: 'string' },
      'from-session': { type: 'string' },
    });
    if (!values.agent && !values.graph) throw new UsageError('--agent NAME or --graph NAME is required');
    if (values.agent && values.graph) throw new UsageError('give --agent or --graph, not both');
    if (!values.goal?.trim()) throw new UsageError('--goal TEXT is required');
    const files = workspaceChoice(values);
    const onExceed = values['on-exceed'] ?? 'wait';
    if (onExceed !== 'wait' && onExceed !== 'fail') throw new UsageError('--on-exceed must be wait or fail');
    const tokens = positiveNumber('max-tokens', values['max-tokens']);
    const cost = positiveNumber('max-cost', values['max-cost']);
    const toolCalls = positiveNumber('max-tool-calls', values['max-tool-calls']);
    const budget =
      tokens || cost || toolCalls
        ? {
            ...(tokens ? { tokens: Math.round(tokens) } : {}),
            ...(cost ? { costMicros: Math.round(cost * 1_000_000) } : {}),
            ...(toolCalls ? { toolCalls: Math.round(toolCalls) } : {}),
            onExceed: onExceed as 'wait' | 'fail',
          }
        : undefined;

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      let target: { agentId: string } | { graphId: string };
      if (values.graph) {
        const graphs = await unwrap(session.api.GET('/graphs'));
        const graph = graphs.find((g) => g.name === values.graph);
        if (!graph) {
          printer.error(`no graph named "${values.graph}" in team ${session.team.slug} (graphs: ${graphs.map((g) => g.name).join(', ') || 'none'})`);
          return EXIT.failure;
        }
        target = { graphId: graph.id };
      } else {
        const agents = await unwrap(session.api.GET('/agents'));
        const agent = agents.find((a) => a.name === values.agent);
        if (!agent) {
          printer.error(`no agent named "${values.agent}" in team ${session.team.slug} (agents: ${agents.map((a) => a.name).join(', ') || 'none'})`);
          return EXIT.failure;
        }
        target = { agentId: agent.id };
      }
      const workspace = await workspaceOf(files, session, values.json, printer);
      const { runId } = await unwrap(
        session.api.POST('/runs', { body: { ...target, goal: values.goal, ...(budget ? { budget } : {}), ...(workspace ? { workspace } : {}) } }),
      );
      if (values.json) printer.raw(JSON.stringify({ runId }));
      else printer.info(`Started run ${runId}: ${session.remote.url}/t/${session.team.slug}/runs/${runId}`);
      if (!values.follow) return EXIT.ok;
      return await followRun({ ...session, runId, json: values.json, printer });
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
