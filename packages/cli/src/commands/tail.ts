import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { followRun } from '../remote/follow';
import { openRemoteSession } from '../remote/session';

const usage = `Usage: looplane tail RUN_ID [--json] [--team SLUG]

Prints a run's events as they happen, from the first one, until the run finishes. A dropped
connection is resumed where it stopped (Last-Event-ID): nothing is skipped or printed twice.
Exit code: 0 when the run succeeded, 1 when it failed or was cancelled (or on an error).

Options:
  --json         print each event as one line of raw JSON (every event, streamed deltas included)
  --team SLUG    the team of the run (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token (required)`;

export const tailCommand: Command = {
  name: 'tail',
  summary: 'Follow a run’s events live until it finishes',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean', default: false }, team: { type: 'string' } }, true);
    const [runId, ...extra] = positionals;
    if (!runId || extra.length > 0) throw new UsageError('give exactly one RUN_ID');
    const session = await openRemoteSession(loadCliEnv(), values.team);
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once('SIGINT', stop);
    try {
      return await followRun({ ...session, runId, json: values.json, printer, signal: abort.signal });
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    } finally {
      process.off('SIGINT', stop);
    }
  },
};
