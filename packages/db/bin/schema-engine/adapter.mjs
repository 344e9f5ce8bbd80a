// The driver-adapter factory handed to the WASM schema engine.
//
// The engine does no I/O itself: it calls `connect()` for the main database
// and `connectToShadowDb()` for `migrate dev`'s shadow database, and expects
// the "bound" adapter shape from @prisma/driver-adapter-utils (every call
// returns { ok, value | error } results). We build on @prisma/adapter-pg and
// fix three things it gets wrong for migrations (see STACK.md):
//   1. the shadow DB must be addressed with separate pg fields;
//   2. the shadow DB must be dropped AFTER its pool is closed, WITH (FORCE);
//   3. pg_catalog columns of type "char" (OID 18) / name (19) must read as text;
//   4. migration scripts must reach Postgres whole (see patchExecuteScript).

import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { describeServer, pgConfigFromUrl, quoteIdent } from './pg-config.mjs';
import { debug, info, log } from './log.mjs';

const require = createRequire(import.meta.url);
// Use the driver-adapter-utils copy adapter-pg itself was built against, so
// the Result/error shapes match what the adapter throws.
const { bindMigrationAwareSqlAdapterFactory } = createRequire(require.resolve('@prisma/adapter-pg'))('@prisma/driver-adapter-utils');

const PG_CHAR_OID = 18; // "char": pg_class.relkind, pg_constraint.contype, ...
const PG_NAME_OID = 19; // name: most identifier columns in pg_catalog
const PG_TEXT_OID = 25;

/**
 * adapter-pg throws UnsupportedNativeDataType for OIDs it does not map, and
 * the engine's introspection queries select "char" columns. Both values are
 * plain strings on the wire, so relabel the result columns as text before
 * adapter-pg looks at them. performIO is where adapter-pg runs every query
 * (queryRaw / executeRaw) for both the adapter and its transactions.
 */
function patchQueryable(queryable) {
  const performIO = queryable.performIO;
  if (typeof performIO !== 'function') {
    // adapter-pg internals changed: fail loudly instead of silently
    // introspecting wrong (it is pinned exactly for this reason).
    throw new Error('schema-engine shim: @prisma/adapter-pg has no performIO(); re-check the OID 18/19 workaround.');
  }
  queryable.performIO = async function patchedPerformIO(query) {
    const result = await performIO.call(this, query);
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID || field.dataTypeID === PG_NAME_OID) field.dataTypeID = PG_TEXT_OID;
    }
    return result;
  };
  const startTransaction = queryable.startTransaction;
  if (typeof startTransaction === 'function') {
    queryable.startTransaction = async function patchedStartTransaction(...args) {
      return patchQueryable(await startTransaction.apply(this, args));
    };
  }
  return queryable;
}

/**
 * adapter-pg's executeScript splits the script on every ";" and runs the
 * pieces one by one. The engine applies each migration.sql through it, so a
 * ";" inside a plpgsql body, a string literal or a comment breaks the
 * migration, and a failing statement leaves the earlier ones applied.
 * Send the script as ONE simple-protocol query instead, as the native
 * engine does: Postgres runs a multi-statement query string as a single
 * implicit transaction, so a migration applies entirely or not at all.
 * (`client` is the adapter's pg.Pool and `onError` its error mapper:
 * adapter-pg internals, pinned exactly.)
 */
function patchExecuteScript(adapter) {
  if (!adapter.client || typeof adapter.onError !== 'function') {
    throw new Error('schema-engine shim: @prisma/adapter-pg internals changed; re-check the executeScript workaround.');
  }
  adapter.executeScript = async function wholeScript(script) {
    try {
      await this.client.query(script);
    } catch (error) {
      this.onError(error);
    }
  };
  return adapter;
}

/** Connects a PrismaPg adapter with all our fixes applied. */
async function connectAdapter(config, schema) {
  return patchExecuteScript(patchQueryable(await new PrismaPg(config, { schema }).connect()));
}

/** Runs one statement on a short-lived client (no pool left behind). */
async function runOnce(config, sql) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * @param {{ url?: string, shadowDatabaseUrl?: string }} datasource the
 *   `--datasource` JSON the CLI passes (from prisma.config.ts).
 * @returns {{ factory: object, explain: (message: string) => string, close: () => Promise<void> }}
 *   `factory` goes to SchemaEngine.new; `explain` restores JS error messages;
 *   `close` drops leftover shadow DBs at shutdown.
 */
export function createAdapterFactory(datasource = {}) {
  /** Shadow databases we created and have not dropped yet. */
  const shadowDatabases = new Set();

  const main = () => {
    if (!datasource.url) {
      throw new Error('This command needs a database connection, but no datasource url is configured (set DATABASE_URL / prisma.config.ts).');
    }
    return pgConfigFromUrl(datasource.url);
  };

  async function dropShadow(config, name) {
    // WITH (FORCE) (Postgres 13+) also ends connections the engine may
    // still hold; otherwise DROP fails with "is being accessed by other users".
    await runOnce(config, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    shadowDatabases.delete(name);
    debug(`dropped shadow database ${name}`);
  }

  const rawFactory = {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',

    async connect() {
      const { config, schema } = main();
      return connectAdapter(config, schema);
    },

    async connectToShadowDb() {
      if (datasource.shadowDatabaseUrl) {
        const { config, schema } = pgConfigFromUrl(datasource.shadowDatabaseUrl);
        const mainConfig = datasource.url ? pgConfigFromUrl(datasource.url).config : {};
        if (describeServer(config) === describeServer(mainConfig) && config.database === mainConfig.database) {
          throw new Error('The shadow database you configured appears to be the same as the main database. Please specify another shadow database.');
        }
        // The native engine empties a configured shadow DB before replaying
        // the migrations into it; the WASM engine does not, so the second
        // `migrate dev` fails with "relation already exists" (P3006). Do it
        // here: drop and recreate the schema the migrations target.
        const adapter = await connectAdapter(config, schema);
        const target = quoteIdent(schema ?? 'public');
        await adapter.client.query(`DROP SCHEMA IF EXISTS ${target} CASCADE; CREATE SCHEMA ${target}`);
        info(`Reset the configured shadow database ${config.database}.`);
        return adapter;
      }
      const { config, schema } = main();
      const name = `prisma_migrate_shadow_db_${randomUUID()}`;
      await runOnce(config, `CREATE DATABASE ${quoteIdent(name)}`);
      shadowDatabases.add(name);
      debug(`created shadow database ${name}`);
      const adapter = await connectAdapter({ ...config, database: name }, schema);
      const dispose = adapter.dispose.bind(adapter); // ends the pool
      adapter.dispose = async () => {
        await dispose();
        await dropShadow(config, name);
      };
      return adapter;
    },
  };

  const factory = bindMigrationAwareSqlAdapterFactory(rawFactory);
  return {
    factory,
    /**
     * A JS error thrown inside the adapter (not a database error) reaches
     * the engine as an id in the factory's error registry, and comes back
     * out as "External error id#N". Put the original message back.
     */
    explain(message) {
      return String(message).replace(/External error id#(\d+)/, (text, id) => {
        const original = factory.errorRegistry?.registeredErrors?.[Number(id)]?.error;
        return original?.message ?? text;
      });
    },
    /** Safety net: drop shadow DBs the engine never disposed (error paths, SIGTERM). */
    async close() {
      if (shadowDatabases.size === 0) return;
      const { config } = main();
      for (const name of [...shadowDatabases]) {
        await dropShadow(config, name).catch((error) => log('WARN', `could not drop shadow database ${name}: ${error.message}`));
      }
    },
  };
}
