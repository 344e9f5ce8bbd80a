import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box';
import { createPgPool, type PgPool } from '../runs/pg-pool';
import { createTestTeam } from '../runs/testing/run-fixtures';
import { sealedSecret, sealedSecrets } from './sealed-secret.repository';

/** The worker's reads of team secrets against real Postgres: by team and name, sealed, with their kind. */
let t: TestDatabase;
let pool: PgPool;
let teamId: string;
let otherTeamId: string;
const box = new SecretBox(randomBytes(32).toString('base64'));
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n';

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
  teamId = await createTestTeam(t.db);
  otherTeamId = await createTestTeam(t.db);
  await t.db.teamSecret.createMany({
    data: [
      { teamId, name: 'DEPLOY_KEY', kind: 'ssh_key', ciphertext: box.seal(KEY), last4: 'AAAA' },
      {
        teamId,
        name: 'FORGE',
        kind: 'token',
        username: 'bot',
        forge: 'gitea',
        apiUrl: 'https://git.example.org/api/v1',
        ciphertext: box.seal('tok-1234'),
        last4: '1234',
      },
      { teamId, name: 'HEADER', ciphertext: box.seal('Bearer abcd'), last4: 'abcd' },
      { teamId: otherTeamId, name: 'OTHER', ciphertext: box.seal('theirs-9999'), last4: '9999' },
    ],
  });
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

describe('sealed team secrets', () => {
  it('reads one secret with its kind, user, forge and API URL; the sealed value opens to what was stored, newlines included', async () => {
    const token = await sealedSecret(pool, teamId, 'FORGE');
    expect(token).toEqual({
      name: 'FORGE',
      kind: 'token',
      username: 'bot',
      forge: 'gitea',
      apiUrl: 'https://git.example.org/api/v1',
      ciphertext: expect.any(String),
    });
    expect(box.open(token!.ciphertext)).toBe('tok-1234');
    const key = await sealedSecret(pool, teamId, 'DEPLOY_KEY');
    expect(key).toMatchObject({ kind: 'ssh_key', username: null, forge: null, apiUrl: null });
    expect(box.open(key!.ciphertext)).toBe(KEY);
    expect(await sealedSecret(pool, teamId, 'HEADER')).toMatchObject({ kind: 'header' });
  });

  it("is null for a name the team lacks, and never reads another team's secret", async () => {
    expect(await sealedSecret(pool, teamId, 'MISSING')).toBeNull();
    expect(await sealedSecret(pool, teamId, 'OTHER')).toBeNull();
    expect(await sealedSecret(pool, otherTeamId, 'OTHER')).toMatchObject({ name: 'OTHER', kind: 'header' });
  });

  it('reads several names at once, keyed by name; absent names and other teams are left out', async () => {
    const found = await sealedSecrets(pool, teamId, ['HEADER', 'DEPLOY_KEY', 'OTHER', 'MISSING']);
    expect([...found.keys()].sort()).toEqual(['DEPLOY_KEY', 'HEADER']);
    expect(found.get('DEPLOY_KEY')?.kind).toBe('ssh_key');
    expect(await sealedSecrets(pool, teamId, [])).toEqual(new Map());
  });
});
