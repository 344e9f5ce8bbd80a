// Turning Prisma-style Postgres URLs into node-postgres configs, and pg
// errors into Prisma's P-codes.

import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);
// pg-connection-string is what pg itself uses to read `connectionString`;
// resolve the copy pg depends on so both agree on every URL parameter.
const { parse } = createRequire(require.resolve('pg'))('pg-connection-string');

/**
 * Splits a URL into separate pg fields (host, port, user, password,
 * database, ssl...).
 *
 * WHY not just { connectionString }: pg lets `connectionString` win over a
 * `database` field given next to it, so a config derived by spreading
 * `{ connectionString, database: other }` silently connects to the URL's
 * database. That is exactly how adapter-pg's own connectToShadowDb ended up
 * using the MAIN database as the "shadow" one. Separate fields make
 * `{ ...config, database }` mean what it says.
 *
 * `schema` is a Prisma URL parameter, not a pg one: it is returned apart and
 * handed to PrismaPg as its `schema` option (the engine reads it from the
 * adapter's connection info).
 */
export function pgConfigFromUrl(url) {
  if (!url) throw new Error('No database URL was given to the schema engine.');
  const { schema, ...config } = parse(url);
  // Other Prisma-only parameters (connection_limit, pgbouncer...) come back
  // as extra string fields; pg ignores config keys it does not know.
  if (config.port) config.port = Number(config.port);
  return { config, schema: schema || undefined };
}

/** "host:port" as the native engine prints it in error messages. */
export function describeServer(config) {
  return `${config.host ?? 'localhost'}:${config.port ?? 5432}`;
}

/** Double-quotes an identifier for SQL (CREATE/DROP DATABASE take no parameters). */
export function quoteIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/**
 * Maps a pg / network error to the { code, message } the native engine
 * would report. Codes: https://www.prisma.io/docs/orm/reference/error-reference
 */
export function toPrismaError(error, config) {
  const server = describeServer(config);
  const database = config.database ?? '';
  switch (error?.code) {
    case '3D000':
      return { code: 'P1003', message: `Database \`${database}\` does not exist on the database server at \`${server}\`.` };
    case '28P01':
    case '28000':
      return {
        code: 'P1000',
        message: `Authentication failed against database server at \`${server}\`, the provided database credentials for \`${config.user ?? ''}\` are not valid.`,
      };
    case '42P04':
      return { code: 'P1009', message: `Database \`${database}\` already exists on the database server at \`${server}\`` };
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return { code: 'P1001', message: `Can't reach database server at \`${server}\`\n\nPlease make sure your database server is running at \`${server}\`.` };
    default:
      return { code: undefined, message: error?.message ?? String(error) };
  }
}

/**
 * Runs `fn` with a client connected to the server's maintenance database,
 * as the native engine does for CREATE/DROP DATABASE (you cannot create or
 * drop the database you are connected to).
 */
export async function withMaintenanceClient(config, fn) {
  let lastError;
  for (const database of ['postgres', 'template1']) {
    const client = new pg.Client({ ...config, database });
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      if (error.code === '3D000') continue; // no such maintenance DB, try the next one
      throw error;
    }
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }
  throw lastError;
}
