import { writeFile } from 'node:fs/promises';
import { downloadSessionPatch } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

const usage = `Usage: looplane patch SESSION_ID [--base N] [-o FILE] [--team SLUG]

Downloads what a session changed as a git format-patch series (one message per call that
changed files, binary changes included): from the files its run started from (a repository,
an upload or another session's files), or from its files at event N. Apply it with git am in
the repository the run started from. Prints the series, or writes it to FILE.

Options:
  --base N          start from the session's files at event N (#N on the run page);
                    needed when the run started with no files
  -o, --output FILE write the series to FILE instead of printing it
  --team SLUG       the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token (viewer role or higher; required)`;

export const patchCommand: Command = {
  name: 'patch',
  summary: 'Download what a session changed as a git format-patch series',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      { base: { type: 'string' }, output: { type: 'string', short: 'o' }, team: { type: 'string' } },
      true,
    );
    const [sessionId, ...extra] = positionals;
    if (!sessionId || extra.length > 0) throw new UsageError('give exactly one SESSION_ID');
    let base: number | undefined;
    if (values.base !== undefined) {
      base = Number(values.base);
      if (!Number.isInteger(base) || base < 1) throw new UsageError('--base must be a whole number of 1 or more');
    }
    if (values.output === '') throw new UsageError('-o needs a file name');

    const session = await openRemoteSession(loadCliEnv(), values.team);
    let patch: string;
    try {
      patch = await downloadSessionPatch(session.api, sessionId, base);
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
    const messages = patch.match(/^From [0-9a-f]{40,64} /gm)?.length ?? 0;
    if (values.output !== undefined) {
      await writeFile(values.output, patch);
      printer.info(`Wrote ${messages} patch(es), ${Buffer.byteLength(patch)} bytes, to ${values.output}`);
    } else if (patch === '') printer.raw('No changes: the patch is empty.', 'stderr');
    else printer.raw(patch);
    return EXIT.ok;
  },
};
