// `schema-engine --datasource <json> cli <command>`: one-shot database
// commands the Prisma CLI runs before starting the RPC server (e.g. `migrate
// dev` / `migrate deploy` check the database exists, and create it on P1003).
// These need no schema and no WASM: plain pg is enough.

import pg from 'pg';
import { describeServer, pgConfigFromUrl, quoteIdent, toPrismaError, withMaintenanceClient } from './pg-config.mjs';
import { info, userError } from './log.mjs';

const commands = {
  async 'can-connect-to-database'(config) {
    const client = new pg.Client(config);
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => {});
    }
    info(`Connection to ${describeServer(config)} successful.`);
  },

  async 'create-database'(config) {
    await withMaintenanceClient(config, (client) => client.query(`CREATE DATABASE ${quoteIdent(config.database)}`));
    process.stdout.write(`Database '${config.database}' was successfully created.\n`);
  },

  async 'drop-database'(config) {
    // WITH (FORCE): a dev database usually still has idle connections
    // (an app, a pool left by a crashed command); plain DROP would refuse.
    await withMaintenanceClient(config, (client) => client.query(`DROP DATABASE ${quoteIdent(config.database)} WITH (FORCE)`));
    process.stdout.write(`The database '${config.database}' was successfully dropped.\n`);
  },
};

/** @returns {Promise<number>} the process exit code. */
export async function runCliCommand(name, datasource) {
  // The CLI skips the first stderr line and JSON-parses the rest: lead with
  // an info line so a following error line is never the skipped one.
  info(`Starting schema engine shim CLI command: ${name}`);
  const command = commands[name];
  if (!command) {
    userError(`Unknown schema engine CLI command: ${name}`);
    return 1;
  }
  let config;
  try {
    ({ config } = pgConfigFromUrl(datasource?.url));
    await command(config);
    return 0;
  } catch (error) {
    const { code, message } = toPrismaError(error, config ?? {});
    userError(message, code);
    return 1;
  }
}
