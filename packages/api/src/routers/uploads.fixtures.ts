import type { Db } from '@looplane/db';
import { craftedTar } from '@looplane/workspaces/testing';
import type { TeamFixture } from '../testing/fixtures';

let made = 0;

/** A small valid tar archive, different each time. */
export function fixtureArchive(): Uint8Array<ArrayBuffer> {
  return new Uint8Array(craftedTar([{ name: `src/file-${made++}.txt`, content: 'fixture\n' }]));
}

/** An upload of the team, straight in the database (as `uploads.create` stores one). */
async function uploadOf(db: Db, teamId: string): Promise<string> {
  const data = fixtureArchive();
  const row = await db.upload.create({
    data: {
      teamId,
      filename: 'fixture.tar',
      format: 'tar',
      bytes: data.length,
      files: 2,
      unpackedBytes: 8n,
      sha256: '0'.repeat(64),
      data,
      expiresAt: new Date(Date.now() + 3600_000),
    },
  });
  return row.id;
}

/** The authorization matrix's cases for the `uploads` router: uploading is the operator's, reading the viewer's. */
export function uploadMatrix(db: () => Db) {
  return {
    'uploads.create': { access: 'operator', input: (fx: TeamFixture) => ({ teamId: fx.teamId, filename: 'matrix.tar', data: fixtureArchive() }) },
    'uploads.get': { access: 'viewer', input: async (fx: TeamFixture) => ({ teamId: fx.teamId, uploadId: await uploadOf(db(), fx.teamId) }) },
  } as const;
}

/** The other team's upload named with the caller's own team id: NOT_FOUND. */
export function uploadCrossTeam(db: () => Db) {
  return {
    'uploads.get': async (fx: TeamFixture) => ({ teamId: fx.teamId, uploadId: await uploadOf(db(), fx.otherTeamId) }),
  };
}
