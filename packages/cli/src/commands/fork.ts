import { unwrap } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

const usage = `Usage: looplane fork SESSION_ID --at N [--message TEXT] [--json] [--team SLUG]

Forks a session at one of its events: a new branch of the run whose conversation is the session's
up to event N and whose workspace files are the ones recorded at that event. The branch starts at
once (with TEXT as a new user message, if given). N is the event's number in the session's log
(#N on the run page; a branch counts the events it inherited). Prints the new session's id.

Options:
  --at N            the event to fork at (required)
  --message TEXT    a user message the branch starts with
  --json            print { sessionId, runId, parentId, atEvent } as one JSON line
  --team SLUG       the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the operator role or higher (required)`;

export const forkCommand: Command = {
  name: 'fork',
  summary: 'Fork a session at an event into a new branch',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      { at: { type: 'string' }, message: { type: 'string' }, json: { type: 'boolean', default: false }, team: { type: 'string' } },
      true,
    );
    const [sessionId, ...extra] = positionals;
    if (!sessionId || extra.length > 0) throw new UsageError('give exactly one SESSION_ID');
    if (values.at === undefined) throw new UsageError('--at N is required (the event number to fork at)');
    const atEvent = Number(values.at);
    if (!Number.isInteger(atEvent) || atEvent < 1) throw new UsageError('--at must be a whole number of 1 or more');
    const message = values.message?.trim();
    if (values.message !== undefined && !message) throw new UsageError('--message must not be empty');

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      const forked = await unwrap(
        session.api.POST('/sessions/{sessionId}/fork', { params: { path: { sessionId } }, body: { atEvent, ...(message ? { message } : {}) } }),
      );
      if (values.json) printer.raw(JSON.stringify(forked));
      else {
        printer.info(`Forked ${forked.parentId} at event #${forked.atEvent}: new branch ${forked.sessionId}`);
        printer.info(`${session.remote.url}/t/${session.team.slug}/runs/${forked.runId}?session=${forked.sessionId}`);
      }
      return EXIT.ok;
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
