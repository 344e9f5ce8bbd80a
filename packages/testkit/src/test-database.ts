import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, type Db } from '@looplane/db';
import { repoRoot } from './paths';

/** Admin connection used to create and drop throwaway databases. */
export const pgAdminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function urlFor(database: string): string {
  const url = new URL(pgAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function migrationFiles(): { name: string; sql: string }[] {
  const dir = join(repoRoot, 'prisma', 'migrations');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name, 'migration.sql'), 'utf8') }));
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A template database with every migration applied, named by the migrations' content hash, so
 * each test database is a cheap `CREATE DATABASE … TEMPLATE` copy instead of a migration run.
 * (The real Prisma CLI path is covered by its own test.)
 */
async function ensureTemplate(): Promise<string> {
  const files = migrationFiles();
  const digest = createHash('sha256');
  for (const file of files) digest.update(file.name).update(file.sql);
  const name = `looplane_tpl_${digest.digest('hex').slice(0, 16)}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(727274)');
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return;
      const staging = `${name}_staging`;
      await admin.query(`DROP DATABASE IF EXISTS "${staging}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${staging}"`);
      const client = new pg.Client({ connectionString: urlFor(staging) });
      await client.connect();
      try {
        for (const file of files) await client.query(file.sql);
      } finally {
        await client.end();
      }
      await admin.query(`ALTER DATABASE "${staging}" RENAME TO "${name}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(727274)');
    }
  });
  return name;
}

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  /** Disconnects and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, fully migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `looplane_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const url = urlFor(name);
  const db = createDb(url, { poolSize: 5 });
  return {
    name,
    url,
    db,
    async drop() {
      await db.$disconnect();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** An empty database (no tables), for tests of the migration path itself. */
export async function createEmptyDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `looplane_e_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: urlFor(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
