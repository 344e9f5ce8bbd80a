import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, hashApiToken } from '@looplane/db';
import { createEmptyDatabase, repoRoot } from '@looplane/testkit';

const run = promisify(execFile);
const bin = join(repoRoot, 'packages/cli/bin/looplane.mjs');
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;

beforeAll(async () => {
  database = await createEmptyDatabase();
});
afterAll(() => database?.drop());

describe('looplane migrate', () => {
  it('migrates an empty database, seeds with --seed, and is idempotent', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      LOOPLANE_ADMIN_PASSWORD: 'compose-admin-pw',
      LOOPLANE_BOOTSTRAP_TOKEN: 'automation-token-0123456789',
    };
    const first = await run(process.execPath, [bin, 'migrate', '--seed'], { env, cwd: repoRoot });
    expect(first.stdout).toContain('Migrations applied.');
    expect(first.stdout).toContain('Created admin@looplane.local.');
    const second = await run(process.execPath, [bin, 'migrate', '--seed'], { env, cwd: repoRoot });
    expect(second.stdout).toContain('Seed data already present.');

    const db = createDb(database.url);
    try {
      expect(await db.team.count({ where: { slug: 'demo' } })).toBe(1);
      const token = await db.apiToken.findUnique({ where: { tokenHash: hashApiToken('automation-token-0123456789') } });
      expect(token?.role).toBe('admin');
    } finally {
      await db.$disconnect();
    }
  }, 120_000);

  it('refuses to run without DATABASE_URL, with one clear line', async () => {
    const result = await run(process.execPath, [bin, 'migrate'], { env: { PATH: process.env.PATH ?? '' }, cwd: repoRoot }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in result ? result.code : 0).toBe(1);
    expect(result.stderr.trim()).toBe('error: DATABASE_URL is required for looplane migrate');
  });
});
