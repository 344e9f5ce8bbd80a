import { readFile } from 'node:fs/promises';
import { verifyAuditExport } from '@looplane/db';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { auditExportUsage, runAuditExport } from './audit-export';

const usage = `Usage: looplane audit verify FILE [--json]

Verifies an audit log export (JSON Lines from the Audit page or audit.export) offline, with the
same hash-chain code the server uses: every row's hash must match its content, every row must
link to the one before, seq must run 1..n, and the file must hold the rows its header announces.
Needs no server and no database.
Exit code: 0 when the chain is verified, 1 when it is broken (the first broken line is printed)
or the file cannot be read.

Options:
  --json   print the verdict as one JSON object`;

/** `looplane audit verify FILE`: the auditor's offline check of an export. */
export const auditCommand: Command = {
  name: 'audit',
  summary: 'Verify an exported audit log offline (audit verify FILE), or export it (audit export)',
  usage: `${usage}\n\n${auditExportUsage}`,
  async run({ args, printer }) {
    if (args[0] === 'export') return runAuditExport(args.slice(1), printer);
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean', default: false } }, true);
    const [sub, file, ...extra] = positionals;
    if (sub !== 'verify') throw new UsageError(sub ? `unknown audit subcommand "${sub}" (verify or export)` : 'give a subcommand: verify FILE or export');
    if (!file || extra.length > 0) throw new UsageError('give exactly one FILE');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      printer.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT.failure;
    }
    const verdict = verifyAuditExport(text);
    if (values.json) {
      printer.raw(JSON.stringify({ file, ...verdict }));
    } else if (verdict.ok) {
      printer.info(`Chain verified: ${verdict.rows} rows of team ${verdict.teamId}, head ${verdict.headHash}`);
    } else {
      const seq = verdict.seq === null ? '' : ` (seq ${verdict.seq})`;
      printer.info(`Chain broken at line ${verdict.line}${seq}: ${verdict.reason}`);
      printer.info(`${verdict.rows} rows before it verified.`);
    }
    return verdict.ok ? EXIT.ok : EXIT.failure;
  },
};
