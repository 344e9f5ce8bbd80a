import { randomBytes } from 'node:crypto';
import { createPgPool, SecretBox, type PgPool } from '@looplane/db';
import { createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamEgressSource } from './team-egress';

/** The egress proxy's view of team secrets against real Postgres: which may become a header value, and why not. */
let t: TestDatabase;
let pool: PgPool;
let teamId: string;
const key = randomBytes(32).toString('base64');
const box = new SecretBox(key);
const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n';

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
  teamId = await createTestTeam(t.db);
  await t.db.teamSecret.createMany({
    data: [
      { teamId, name: 'HEADER', ciphertext: box.seal('Bearer header-1234'), last4: '1234' },
      { teamId, name: 'TOKEN', kind: 'token', forge: 'github', ciphertext: box.seal('ghp_token-5678'), last4: '5678' },
      { teamId, name: 'DEPLOY_KEY', kind: 'ssh_key', ciphertext: box.seal(PRIVATE_KEY), last4: 'jE=\n' },
    ],
  });
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

describe('team secrets for egress credentials', () => {
  it('opens header and token secrets; an ssh_key secret is refused as a header value, and so is a missing name', async () => {
    const source = new TeamEgressSource({ pool, encryptionKey: key, logger: pino({ level: 'silent' }), ttlMs: 0 });
    const lookup = await source.secrets(teamId, ['HEADER', 'TOKEN', 'DEPLOY_KEY', 'MISSING']);
    expect(Object.fromEntries(lookup)).toEqual({
      HEADER: { value: 'Bearer header-1234' },
      TOKEN: { value: 'ghp_token-5678' },
      DEPLOY_KEY: { problem: 'is an ssh_key secret, not a header value' },
      MISSING: { problem: 'does not exist (Settings → Secrets)' },
    });
    expect(JSON.stringify(Object.fromEntries(lookup))).not.toContain('PRIVATE KEY');
  });

  it('a worker without the key says so, except for an ssh key, which is refused for what it is', async () => {
    const source = new TeamEgressSource({ pool, encryptionKey: undefined, logger: pino({ level: 'silent' }), ttlMs: 0 });
    const lookup = await source.secrets(teamId, ['HEADER', 'DEPLOY_KEY']);
    expect(lookup.get('HEADER')).toEqual({ problem: 'cannot be opened: this worker has no LOOPLANE_ENCRYPTION_KEY' });
    expect(lookup.get('DEPLOY_KEY')).toEqual({ problem: 'is an ssh_key secret, not a header value' });
  });
});
