import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres';
import { groupAlive } from './proc';

const home = await mkdtemp(join(tmpdir(), 'looplane-pg-'));
// mkdtemp makes 0700 directories; as root, Postgres runs as `postgres` and must be able to enter.
await chmod(home, 0o755);
const options = { home, password: 'a-generated-password', inheritedEnv: { PATH: process.env.PATH ?? '' }, onStep: () => {} };

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('startEmbeddedPostgres', () => {
  it('creates the cluster and the looplane database on a free port, and keeps data across restarts', async () => {
    const first = await startEmbeddedPostgres(options);
    try {
      const url = new URL(first.url);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.port).not.toBe('5432');
      expect(url.pathname).toBe('/looplane');
      await query(first.url, 'CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)');
    } finally {
      await first.stop();
    }
    expect(groupAlive(first.child.pid)).toBe(false);

    const second = await startEmbeddedPostgres(options);
    try {
      const rows = await query(second.url, 'SELECT id FROM kept');
      expect(rows.rows).toEqual([{ id: 42 }]);
      // Only TCP on 127.0.0.1: no listener on other addresses.
      const settings = await query(second.url, "SELECT current_setting('listen_addresses') AS listen");
      expect(settings.rows[0].listen).toBe('127.0.0.1');
    } finally {
      await second.stop();
    }
  });

  it('explains when the postgres user cannot enter LOOPLANE_HOME', async () => {
    const locked = await mkdtemp(join(tmpdir(), 'looplane-pg-locked-'));
    try {
      const attempt = startEmbeddedPostgres({ ...options, home: join(locked, 'home') });
      if (process.getuid?.() === 0) await expect(attempt).rejects.toThrow(/the postgres user \(uid \d+\) cannot enter/);
      else await (await attempt).stop();
    } finally {
      await rm(locked, { recursive: true, force: true });
    }
  });

  it('fails with a clear message when the stored password no longer matches the cluster', async () => {
    await expect(startEmbeddedPostgres({ ...options, password: 'some-other-password' })).rejects.toThrow(/the embedded Postgres rejected the stored password/);
  });
});
