import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandArgs } from '../args';
import { EXIT, type Command } from '../command';
import { cliEnvOrReport } from '../env';
import { applyMigrations } from '../start/migrate';
import { seed } from '../start/seed';

const usage = `Usage: looplane migrate [--seed]

Applies pending database migrations to DATABASE_URL (required) and exits. With --seed, also
creates what is missing of the first admin, the demo team, the faux model endpoints, the demo agents
(including the sandboxed demo-steps and the approval demo) and the demo swarm graph
(idempotent), and the LOOPLANE_BOOTSTRAP_TOKEN admin token when that is set.
Used by docker/compose.yaml's one-shot "migrate" service.

Environment:
  DATABASE_URL              the Postgres to migrate (required)
  LOOPLANE_ADMIN_PASSWORD   password of the first admin (default: generated, printed once)
  LOOPLANE_BOOTSTRAP_TOKEN  an admin API token to create for scripts`;

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply database migrations (and optionally seed) against DATABASE_URL',
  usage,
  async run({ args, printer }) {
    const { values } = parseCommandArgs(args, { seed: { type: 'boolean', default: false } });
    const env = cliEnvOrReport(printer);
    if (!env) return EXIT.failure;
    if (!env.DATABASE_URL) {
      printer.error('DATABASE_URL is required for looplane migrate');
      return EXIT.failure;
    }
    const logDir = mkdtempSync(join(tmpdir(), 'looplane-migrate-'));
    await applyMigrations({
      databaseUrl: env.DATABASE_URL,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      logDir,
      signal: new AbortController().signal,
    });
    printer.info('Migrations applied.');
    if (values.seed) {
      const summary = await seed({
        databaseUrl: env.DATABASE_URL,
        ...(env.LOOPLANE_ADMIN_PASSWORD ? { adminPassword: env.LOOPLANE_ADMIN_PASSWORD } : {}),
        ...(env.LOOPLANE_BOOTSTRAP_TOKEN ? { bootstrapToken: env.LOOPLANE_BOOTSTRAP_TOKEN } : {}),
      });
      if (summary.generatedPassword) {
        printer.info(`Created ${summary.adminEmail} with password ${summary.generatedPassword} (shown once).`);
      } else {
        printer.info(summary.adminCreated ? `Created ${summary.adminEmail}.` : 'Seed data already present.');
      }
    }
    return EXIT.ok;
  },
};
