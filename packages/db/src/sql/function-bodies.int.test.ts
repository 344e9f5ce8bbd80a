import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, type PgClient, type PgPool, withClient } from '../runs/pg-pool';
import { type FunctionDefinition, readDefinitions, type TriggerDefinition } from './definition-files';

/**
 * The functions and triggers a migrated database holds are exactly those the `.sql` files define.
 * Migrations build the database and the files are what a reader sees, so the two must not drift: a
 * function changed by a migration but not in its file fails here, and so does a file changed without
 * the migration that applies it.
 */

interface DbFunction {
  oid: number;
  name: string;
  signature: string;
  body: string;
  definition: string;
}

interface DbTrigger {
  table: string;
  name: string;
  definition: string;
  enabled: string;
}

/** User functions of the public schema; an extension's own are not ours to define. */
const functionsSql = `
  SELECT p.oid::int AS oid, p.proname AS name, p.oid::regprocedure::text AS signature, p.prosrc AS body,
         pg_get_functiondef(p.oid) AS definition
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public'
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  ORDER BY p.proname, signature`;

/** Triggers written by hand: internal ones back foreign keys and other constraints. */
const triggersSql = `
  SELECT c.relname AS table, t.tgname AS name, pg_get_triggerdef(t.oid) AS definition, t.tgenabled AS enabled
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND NOT t.tgisinternal
  ORDER BY c.relname, t.tgname`;

async function catalog(client: PgPool | PgClient): Promise<{ functions: DbFunction[]; triggers: DbTrigger[] }> {
  const functions = (await client.query<DbFunction>(functionsSql)).rows;
  const triggers = (await client.query<DbTrigger>(triggersSql)).rows;
  return { functions, triggers };
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

let t: TestDatabase;
let pool: PgPool;
const definitions = readDefinitions();
const fileFunctions = definitions.filter((d): d is FunctionDefinition => d.kind === 'function');
const fileTriggers = definitions.filter((d): d is TriggerDefinition => d.kind === 'trigger');

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await t?.drop();
});

describe('a migrated database', () => {
  it('holds exactly the functions the .sql files define, with the same bodies', async () => {
    const { functions } = await catalog(pool);
    const inDatabase = Object.fromEntries(functions.map((f) => [f.name, f.body.trim()]));
    const inFiles = Object.fromEntries(fileFunctions.map((f) => [f.name, f.body.trim()]));
    // One function per name on both sides, so the maps lose nothing.
    expect(functions.map((f) => f.signature)).toHaveLength(Object.keys(inDatabase).length);
    expect(fileFunctions).toHaveLength(Object.keys(inFiles).length);
    expect(inDatabase).toEqual(inFiles);
  });

  it('holds exactly the triggers the .sql files define, all enabled', async () => {
    const { triggers } = await catalog(pool);
    const key = (trigger: { table: string; name: string }) => `${trigger.table}.${trigger.name}`;
    expect(triggers.map(key)).toEqual(fileTriggers.map(key).sort());
    expect(triggers.filter((trigger) => trigger.enabled !== 'O').map(key)).toEqual([]);
  });

  it('is rebuilt from the files alone to the same definitions (signatures, volatility, events, WHEN clauses)', async () => {
    const migrated = await catalog(pool);
    // Everything is dropped and recreated from the files inside a transaction that is rolled back.
    const rebuilt = await withClient(pool, async (client) => {
      await client.query('BEGIN');
      try {
        // As pg_dump does: an SQL function's body may name one defined further on.
        await client.query('SET LOCAL check_function_bodies = off');
        for (const trigger of migrated.triggers) await client.query(`DROP TRIGGER ${quoted(trigger.name)} ON ${quoted(trigger.table)}`);
        for (const fn of migrated.functions) await client.query(`DROP FUNCTION ${fn.signature}`);
        for (const fn of fileFunctions) await client.query(fn.sql);
        for (const trigger of fileTriggers) await client.query(trigger.sql);
        return await catalog(client);
      } finally {
        await client.query('ROLLBACK');
      }
    });
    const definitionsOf = (c: typeof migrated) => ({
      functions: c.functions.map((f) => f.definition),
      triggers: c.triggers.map((trigger) => trigger.definition),
    });
    expect(definitionsOf(rebuilt)).toEqual(definitionsOf(migrated));
  });
});
