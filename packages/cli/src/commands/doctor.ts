import { parseCommandArgs } from '../args';
import { EXIT, type Command } from '../command';
import { checkReservedKeys } from '../doctor/reserved-keys-check';
import { cliEnvOrReport } from '../env';

const usage = `Usage: looplane doctor [--json]

Checks an instance's database (DATABASE_URL, required) for stored data the API could once not
serve, and says whether it can now. Reads only; changes nothing.

Checks:
  stored JSON   rows whose JSON holds a key superjson refuses (__proto__, constructor,
                prototype), e.g. a model's tool arguments. Before the API escaped these keys on
                the wire, every listing returning such a row (approvals, audit, run and session
                events) answered 500. Each row must now come back from the wire exactly as
                stored; the rows themselves are never rewritten (events are immutable, audit rows
                are hash-chained).

Exit code: 0 when every check passes, 1 when one fails (the rows are listed).

Options:
  --json   print the report as one JSON object`;

/** `looplane doctor`: read-only checks of an instance's stored data. */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check that the stored data of an instance (DATABASE_URL) can be served',
  usage,
  async run({ args, printer }) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean', default: false } });
    const env = cliEnvOrReport(printer);
    if (!env) return EXIT.failure;
    if (!env.DATABASE_URL) {
      printer.error('DATABASE_URL is required for looplane doctor');
      return EXIT.failure;
    }
    const report = await checkReservedKeys(env.DATABASE_URL);
    const ok = report.unreadable.length === 0;
    if (values.json) {
      printer.raw(JSON.stringify({ ok, storedJson: report }));
      return ok ? EXIT.ok : EXIT.failure;
    }
    const held = Object.entries(report.rowsWithReservedKeys);
    if (held.length === 0) printer.info('stored JSON: no row holds a key superjson refuses.');
    else {
      const total = held.reduce((sum, [, n]) => sum + n, 0);
      printer.info(`stored JSON: ${total} row(s) hold keys superjson refuses (${held.map(([where, n]) => `${where}: ${n}`).join(', ')}).`);
      if (ok) printer.info('stored JSON: every one is served as stored (escaped on the wire); nothing to repair.');
    }
    for (const row of report.unreadable) printer.info(`stored JSON: ${row.table}.${row.column} row ${row.id} ${row.reason}`);
    return ok ? EXIT.ok : EXIT.failure;
  },
};
