import { unwrap } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession, type RemoteSession } from '../remote/session';

const usage = `Usage: looplane replay SESSION_ID [--endpoint NAME] [--mode stop|live] [--at N] [--system-prompt TEXT] [--json] [--team SLUG]

Replays a session on another model endpoint or system prompt: a new branch of the same run that
starts from the recorded input at event N (default: the session's start) and runs the new model.
While it asks for the same tool calls as the recording, the recorded results are served from the
log: no tool runs again. At the first divergence, --mode stop (the default) ends the branch with a
divergence report; --mode live goes on for real, under the policy and budgets. The replay's spend
is its own and counts against the run's budget. Prints the new session's id and the run page,
where the branch compare shows the replay beside the original.

Options:
  --endpoint NAME       a model endpoint of the team, by name (as an agent of the team uses it) or id
  --mode stop|live      what happens at the first divergence (default: stop)
  --at N                the event to replay from (#N on the run page; default: the session's start)
  --system-prompt TEXT  replaces the system prompt for the replay
  --json                print { sessionId, runId, parentId, atEvent, mode } as one JSON line
  --team SLUG           the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the operator role or higher (required)`;

/** An endpoint id from NAME: the endpoint of that name that the team's agents use; else NAME is taken for an id. */
async function endpointIdOf(session: RemoteSession, name: string): Promise<string> {
  const agents = await unwrap(session.api.GET('/agents'));
  return agents.find((a) => a.endpoint.name === name && !a.endpoint.deleted)?.endpoint.id ?? name;
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'Replay a session on another endpoint or prompt, serving recorded tool results',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        endpoint: { type: 'string' },
        mode: { type: 'string', default: 'stop' },
        at: { type: 'string' },
        'system-prompt': { type: 'string' },
        json: { type: 'boolean', default: false },
        team: { type: 'string' },
      },
      true,
    );
    const [sessionId, ...extra] = positionals;
    if (!sessionId || extra.length > 0) throw new UsageError('give exactly one SESSION_ID');
    if (values.mode !== 'stop' && values.mode !== 'live') throw new UsageError('--mode must be stop or live');
    const mode: 'stop' | 'live' = values.mode === 'live' ? 'live' : 'stop';
    const atEvent = values.at === undefined ? undefined : Number(values.at);
    if (atEvent !== undefined && (!Number.isInteger(atEvent) || atEvent < 1)) throw new UsageError('--at must be a whole number of 1 or more');
    if (values.endpoint !== undefined && !values.endpoint.trim()) throw new UsageError('--endpoint must not be empty');
    const systemPrompt = values['system-prompt'];

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      const endpointId = values.endpoint === undefined ? undefined : await endpointIdOf(session, values.endpoint.trim());
      const body = {
        mode,
        ...(atEvent !== undefined ? { atEvent } : {}),
        ...(endpointId !== undefined ? { endpointId } : {}),
        ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      };
      const replayed = await unwrap(session.api.POST('/sessions/{sessionId}/replay', { params: { path: { sessionId } }, body }));
      if (values.json) printer.raw(JSON.stringify(replayed));
      else {
        printer.info(`Replaying ${sessionId} from event #${replayed.atEvent} (${replayed.mode}): new branch ${replayed.sessionId}`);
        printer.info(`${session.remote.url}/t/${session.team.slug}/runs/${replayed.runId}?session=${replayed.sessionId}`);
      }
      return EXIT.ok;
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
