import { createPgPool, type PgPool } from '@looplane/db';
import { createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadSweeper } from './upload-sweeper';

const HOUR = 3600_000;
let t: TestDatabase;
let pool: PgPool;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await t?.drop();
});

/** An upload made `ageHours` ago (it expires 24 hours after), used by a run or not. */
async function uploadOf(teamId: string, ageHours: number, used: boolean): Promise<string> {
  const createdAt = new Date(Date.now() - ageHours * HOUR);
  const row = await t.db.upload.create({
    data: {
      teamId,
      filename: 'seed.tar',
      format: 'tar',
      bytes: 3,
      files: 1,
      unpackedBytes: 1n,
      sha256: '0'.repeat(64),
      data: new Uint8Array([1, 2, 3]),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * HOUR),
      usedAt: used ? new Date(createdAt.getTime() + HOUR) : null,
    },
  });
  return row.id;
}

describe('the upload sweep', () => {
  it('deletes uploads that expired unused, in batches, and keeps fresh ones and any a run used', async () => {
    const teamId = await createTestTeam(t.db);
    const expired = await Promise.all([25, 30, 48].map((age) => uploadOf(teamId, age, false)));
    const fresh = await uploadOf(teamId, 23, false);
    const usedLongAgo = await uploadOf(teamId, 24 * 30, true);
    const sweeper = new UploadSweeper({ pool, batch: 2, logger: pino({ level: 'silent' }) });

    const deleted = await sweeper.pass();
    expect(deleted.map((row) => row.id).sort()).toEqual([...expired].sort());
    expect((await t.db.upload.findMany({ select: { id: true } })).map((row) => row.id).sort()).toEqual([fresh, usedLongAgo].sort());
    expect(await sweeper.pass()).toEqual([]);

    // A day later by its clock, the fresh one has expired too; the used one never does.
    const later = new UploadSweeper({ pool, clock: { now: () => Date.now() + 24 * HOUR }, logger: pino({ level: 'silent' }) });
    expect((await later.pass()).map((row) => row.id)).toEqual([fresh]);
    expect(await t.db.upload.count({ where: { id: usedLongAgo } })).toBe(1);
  });
});
