import { createHash, randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, type PgPool, type Queryable } from '../runs/pg-pool';
import { createTestTeam } from '../runs/testing/run-fixtures';
import { claimUploadForRun, deleteExpiredUploads, insertUpload, uploadData, uploadForTeam, type NewUpload } from './uploads.repository';

/**
 * Uploads against real Postgres, through node-postgres (the worker's pool) and through Prisma's
 * raw queries (the API's client): stored bytes come back unchanged, a team sees only its own
 * uploads, an unused one expires and is swept, a used one is kept for every run that uses it.
 */
let t: TestDatabase;
let pool: PgPool;
let prisma: Queryable;
let teamId: string;
let otherTeamId: string;
let n = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
  // The shape the API adapts its Prisma client to (`queryableOf`).
  prisma = {
    query: async (config: { text: string; values?: unknown[] }) => ({ rows: await t.db.$queryRawUnsafe<unknown[]>(config.text, ...(config.values ?? [])) }),
  } as unknown as Queryable;
  teamId = await createTestTeam(t.db);
  otherTeamId = await createTestTeam(t.db);
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

const DAY_MS = 24 * 3600_000;

function upload(data: Buffer, overrides: Partial<NewUpload> = {}): NewUpload {
  return {
    id: `cupload${String(n++).padStart(18, '0')}`,
    teamId,
    createdById: null,
    createdByTokenId: null,
    filename: 'seed.tar.gz',
    format: 'tar.gz',
    bytes: data.length,
    files: 3,
    unpackedBytes: 5_000_000_000,
    sha256: createHash('sha256').update(data).digest('hex'),
    data,
    ttlMs: DAY_MS,
    ...overrides,
  };
}

describe('uploads', () => {
  for (const [via, db] of [
    ['node-postgres', () => pool],
    ['Prisma', () => prisma],
  ] as const) {
    it(`stores the bytes and metadata and reads them back unchanged (${via})`, async () => {
      const data = randomBytes(3 * 1024 * 1024);
      const before = Date.now();
      const stored = await insertUpload(db(), upload(data));
      expect(stored).toMatchObject({
        teamId,
        filename: 'seed.tar.gz',
        format: 'tar.gz',
        bytes: data.length,
        files: 3,
        unpackedBytes: 5_000_000_000,
        usedAt: null,
      });
      expect(stored.expiresAt!.getTime() - stored.createdAt.getTime()).toBe(DAY_MS);
      expect(Math.abs(stored.createdAt.getTime() - before)).toBeLessThan(60_000);
      expect(await uploadForTeam(db(), teamId, stored.id)).toEqual(stored);
      expect((await uploadData(db(), teamId, stored.id))!.equals(data)).toBe(true);
    });
  }

  it('shows an upload to its own team only, and to no one once it is absent', async () => {
    const stored = await insertUpload(pool, upload(Buffer.from('x')));
    expect(await uploadForTeam(pool, otherTeamId, stored.id)).toBeNull();
    expect(await uploadData(pool, otherTeamId, stored.id)).toBeNull();
    expect(await claimUploadForRun(pool, otherTeamId, stored.id)).toBeNull();
    expect(await uploadForTeam(pool, teamId, 'cnosuchupload000000000000')).toBeNull();
    expect((await uploadForTeam(pool, teamId, stored.id))!.usedAt).toBeNull();
  });

  it('expires an unused upload: it is gone for the team and the sweep deletes it', async () => {
    const expired = await insertUpload(pool, upload(Buffer.from('old'), { ttlMs: -1000 }));
    const fresh = await insertUpload(pool, upload(Buffer.from('new')));
    expect(await uploadForTeam(pool, teamId, expired.id)).toBeNull();
    expect(await uploadData(pool, teamId, expired.id)).toBeNull();
    expect(await claimUploadForRun(pool, teamId, expired.id)).toBeNull();
    const swept = await deleteExpiredUploads(pool, new Date());
    expect(swept).toContainEqual({ id: expired.id, teamId });
    expect(swept.map((row) => row.id)).not.toContain(fresh.id);
    expect(await t.db.upload.count({ where: { id: expired.id } })).toBe(0);
    // A sweep as of a day and a minute later takes the fresh one too.
    expect((await deleteExpiredUploads(pool, new Date(Date.now() + DAY_MS + 60_000))).map((row) => row.id)).toContain(fresh.id);
  });

  it('keeps an upload a run used, whatever its expiry, for any number of runs', async () => {
    const stored = await insertUpload(prisma, upload(Buffer.from('seed'), { ttlMs: 2000 }));
    const first = await claimUploadForRun(prisma, teamId, stored.id);
    expect(first!.usedAt).toBeInstanceOf(Date);
    expect(first!.expiresAt).toBeNull();
    const second = await claimUploadForRun(pool, teamId, stored.id);
    expect(second!.usedAt).toEqual(first!.usedAt);
    // Past its expiry, the sweep leaves it and the team still reads it.
    expect((await deleteExpiredUploads(pool, new Date(Date.now() + DAY_MS))).map((row) => row.id)).not.toContain(stored.id);
    await t.db.upload.update({ where: { id: stored.id }, data: { expiresAt: new Date(Date.now() - DAY_MS) } });
    expect(await uploadForTeam(pool, teamId, stored.id)).toMatchObject({ id: stored.id, expiresAt: null });
    expect((await uploadData(pool, teamId, stored.id))!.toString()).toBe('seed');
  });
});
