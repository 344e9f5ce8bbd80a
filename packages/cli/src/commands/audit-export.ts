import { writeFile } from 'node:fs/promises';
import { unwrap } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError } from '../command';
import { loadCliEnv } from '../env';
import type { Printer } from '../printer';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

export const auditExportUsage = `Usage: looplane audit export [--out FILE] [--json] [--team SLUG]

Downloads the team's whole audit chain as JSON Lines (what \`looplane audit verify FILE\` checks).
Writes it to FILE (default: the server's file name, in the current directory); --out - writes
the JSON Lines to stdout. Needs a team API token with the admin role (LOOPLANE_URL, LOOPLANE_TOKEN).
Exit code: 0 written, 1 refused or failed, 2 wrong usage.

Options:
  --out FILE   where to write the export (- for stdout)
  --json       print { file, rows, headHash } as one JSON object
  --team SLUG  the team (default: the token's team)`;

/** `looplane audit export`: the admin's download of the chain, for an auditor to verify offline. */
export async function runAuditExport(args: string[], printer: Printer): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { out: { type: 'string' }, json: { type: 'boolean', default: false }, team: { type: 'string' } },
    true,
  );
  if (positionals.length > 1) throw new UsageError('audit export takes no FILE argument (use --out FILE)');
  if (values.out === '-' && values.json) throw new UsageError('--json cannot go with --out - (stdout carries the export)');
  const session = await openRemoteSession(loadCliEnv(), values.team);
  let exported: { filename: string; text: string; rows: number; headHash: string };
  try {
    exported = await unwrap(session.api.GET('/audit/export'));
  } catch (error) {
    printer.error(describeApiError(error, session.remote));
    return EXIT.failure;
  }
  if (values.out === '-') {
    printer.raw(exported.text);
    return EXIT.ok;
  }
  const file = values.out ?? exported.filename;
  try {
    await writeFile(file, exported.text, { flag: values.out ? 'w' : 'wx' });
  } catch (error) {
    printer.error(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
  if (values.json) printer.raw(JSON.stringify({ file, rows: exported.rows, headHash: exported.headHash }));
  else printer.info(`Wrote ${exported.rows} audit rows to ${file} (head ${exported.headHash}). Verify with: looplane audit verify ${file}`);
  return EXIT.ok;
}
