// The real Prisma CLI against a real Postgres, through our offline schema
// engine (packages/db/bin/schema-engine.mjs, wired in /prisma.config.ts).
// Guards the pins: prisma, @prisma/adapter-pg and @prisma/schema-engine-wasm
// are combined in a way Prisma does not support, so any upgrade must pass this.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const prismaCli = path.join(repoRoot, 'node_modules/prisma/build/index.js');
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const dbName = `looplane_mig_${randomBytes(6).toString('hex')}`;
const dbUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
})();

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the Prisma CLI from the repo root, so it loads /prisma.config.ts.
 * PRISMA_SCHEMA_ENGINE_BINARY is removed from the env on purpose: the
 * config must set it by itself. `wrapper` prefixes the command (unshare).
 */
function prisma(args: string[], env: Record<string, string | undefined> = {}, wrapper: string[] = []): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.PRISMA_SCHEMA_ENGINE_BINARY;
  delete childEnv.SHADOW_DATABASE_URL;
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const [command, ...rest] = [...wrapper, process.execPath, prismaCli, ...args];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command!, rest, { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** Fails with the CLI's own output, which says why. */
function expectSuccess(result: CliResult) {
  expect(result.code, `exit ${result.code}\n${result.stdout}\n${result.stderr}`).toBe(0);
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const shadowDatabases = () =>
  withClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'");
    return rows.map((row) => row.datname);
  });

const migrationNames = readdirSync(path.join(repoRoot, 'prisma/migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('prisma migrate (offline schema engine)', () => {
  beforeAll(async () => {
    await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE "${dbName}"`));
  }, 30_000);

  afterAll(async () => {
    await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  }, 30_000);

  // One CLI call per test: each takes ~2-3 s alone, but 15-17 s was seen on a
  // loaded 2-core machine, so they do not share one 60 s budget.
  it('deploys every migration to an empty database', async () => {
    const deploy = await prisma(['migrate', 'deploy'], { DATABASE_URL: dbUrl });
    expectSuccess(deploy);
    expect(deploy.stdout).toContain('All migrations have been successfully applied.');
  }, 60_000);

  it('then reports the database up to date, with the tables and migration rows in place', async () => {
    const status = await prisma(['migrate', 'status'], { DATABASE_URL: dbUrl });
    expectSuccess(status);
    expect(status.stdout).toContain('Database schema is up to date!');

    await withClient(dbUrl, async (db) => {
      const { rows: tables } = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['User', 'Team', 'Membership', 'Run', 'Session', 'Event', 'AuditLog', 'PolicyVersion', '_prisma_migrations']),
      );
      const { rows: applied } = await db.query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
      );
      expect(applied.map((m) => m.migration_name)).toEqual(migrationNames);
    });
  }, 60_000);

  it('refuses UPDATE and DELETE on the append-only tables (hand-written triggers)', async () => {
    await withClient(dbUrl, async (db) => {
      await db.query(`INSERT INTO "Team" (id, slug, name, "updatedAt") VALUES ('team1', 'team1', 'Team 1', now())`);
      await db.query(`INSERT INTO "AuditLog" ("teamId", seq, "actorType", action, "prevHash", hash) VALUES ('team1', 1, 'system', 'team.created', '', 'h1')`);
      await db.query(`INSERT INTO "Policy" (id, "teamId", name, "updatedAt") VALUES ('pol1', 'team1', 'default', now())`);
      await db.query(`INSERT INTO "PolicyVersion" (id, "policyId", version, document) VALUES ('pv1', 'pol1', 1, '{}')`);
      await db.query(`INSERT INTO "Run" (id, "teamId", goal, "updatedAt") VALUES ('run1', 'team1', 'goal', now())`);
      await db.query(`INSERT INTO "Session" (id, "runId", "updatedAt") VALUES ('ses1', 'run1', now())`);
      await db.query(`INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload) VALUES ('run1', 'ses1', 1, 1, 'run.created', '{}')`);

      const cases = [
        { table: 'AuditLog', set: `action = 'forged'` },
        { table: 'Event', set: `type = 'forged'` },
        { table: 'PolicyVersion', set: `comment = 'forged'` },
      ];
      for (const { table, set } of cases) {
        await expect(db.query(`UPDATE "${table}" SET ${set}`), `UPDATE ${table}`).rejects.toThrow(`${table} rows are immutable`);
        await expect(db.query(`DELETE FROM "${table}"`), `DELETE ${table}`).rejects.toThrow(`${table} rows are immutable`);
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM "${table}"`);
        expect(rows[0].n, table).toBe(1);
      }
      // Inserting stays allowed: the chain grows.
      await db.query(`INSERT INTO "AuditLog" ("teamId", seq, "actorType", action, "prevHash", hash) VALUES ('team1', 2, 'system', 'x', 'h1', 'h2')`);
    });
  }, 60_000);

  it('migrations match schema.prisma (migrate diff through a temporary shadow database)', async () => {
    const before = new Set(await shadowDatabases());
    const diff = await prisma(['migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema', 'prisma/schema.prisma', '--exit-code'], {
      DATABASE_URL: dbUrl,
    });
    // --exit-code: 0 = no difference, 2 = schema.prisma changed without a migration.
    expectSuccess(diff);
    expect(diff.stdout).toContain('No difference detected.');
    // Our engine creates the shadow DB itself and must drop it again.
    expect((await shadowDatabases()).filter((name) => !before.has(name))).toEqual([]);
  }, 60_000);
});

// Network isolation: a new, empty network namespace (only a down loopback).
// unshare -rn works as root and wherever unprivileged user namespaces are
// allowed. Elsewhere, fall back to pointing Prisma's downloader at a dead
// proxy (it honours HTTP(S)_PROXY), which still fails any download attempt.
const canUnshare = spawnSync('unshare', ['-rn', 'true']).status === 0;
const offline = canUnshare
  ? { wrapper: ['unshare', '-rn'], env: {} }
  : { wrapper: [], env: { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' } };

describe(`prisma CLI without network (${canUnshare ? 'unshare -rn' : 'dead proxy'})`, () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(path.join(tmpdir(), 'looplane-generate-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('generates the client with no DATABASE_URL and no engine download', async () => {
    // Generate into a temp dir: rewriting packages/db/src/generated while
    // other test files import it would make them flaky. Same schema, only
    // the generator output differs.
    const schema = readFileSync(path.join(repoRoot, 'prisma/schema.prisma'), 'utf8');
    const output = path.join(outDir, 'client');
    const tempSchema = path.join(outDir, 'schema.prisma');
    const replaced = schema.replace(/output\s*=\s*"[^"]*"/, `output = ${JSON.stringify(output)}`);
    expect(replaced).not.toBe(schema);
    writeFileSync(tempSchema, replaced);

    const generate = await prisma(['generate', '--schema', tempSchema], { ...offline.env, DATABASE_URL: undefined }, offline.wrapper);
    expectSuccess(generate);
    expect(generate.stdout).toContain('Generated Prisma Client');
    expect(existsSync(path.join(output, 'client.ts'))).toBe(true);
  }, 60_000);

  it('resolves the schema engine to our tool, through the env var prisma.config.ts sets', async () => {
    const version = await prisma(['version'], { ...offline.env, DATABASE_URL: undefined }, offline.wrapper);
    expectSuccess(version);
    expect(version.stdout).toMatch(
      /Schema Engine\s*: schema-engine-cli [0-9a-f]{40} \(at .*packages\/db\/bin\/schema-engine\.mjs, resolved by PRISMA_SCHEMA_ENGINE_BINARY\)/,
    );
  }, 60_000);
});
