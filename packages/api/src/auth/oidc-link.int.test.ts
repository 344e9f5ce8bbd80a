import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedUserId, linkOidcIdentity } from './oidc-link';

const ISSUER = 'https://id.example.com';
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

async function user(email: string, disabled = false) {
  return t.db.user.create({ data: { email, disabledAt: disabled ? new Date() : null } });
}

describe('linkOidcIdentity', () => {
  it('links a verified email to the existing user, then recognises the subject', async () => {
    const alice = await user('alice@example.com');
    const first = await linkOidcIdentity(t.db, {
      provider: ISSUER,
      subject: 'sub-alice',
      email: 'Alice@Example.com',
      emailVerified: true,
    });
    expect(first).toBe(alice.id);
    expect(await linkedUserId(t.db, ISSUER, 'sub-alice')).toBe(alice.id);
    // Later sign-ins match on (issuer, subject), even if the IdP email changed.
    const again = await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'sub-alice', email: 'new@example.com', emailVerified: false });
    expect(again).toBe(alice.id);
  });

  it('refuses unverified emails, unknown users and disabled users', async () => {
    await user('bob@example.com');
    await user('carol@example.com', true);
    const attempts = [
      { subject: 'sub-bob', email: 'bob@example.com', emailVerified: false },
      { subject: 'sub-nobody', email: 'nobody@example.com', emailVerified: true },
      { subject: 'sub-carol', email: 'carol@example.com', emailVerified: true },
      { subject: 'sub-noemail', email: null, emailVerified: true },
    ];
    for (const attempt of attempts) {
      expect(await linkOidcIdentity(t.db, { provider: ISSUER, ...attempt })).toBeNull();
    }
    expect(await t.db.userIdentity.count({ where: { subject: { in: attempts.map((a) => a.subject) } } })).toBe(0);
  });

  it('keeps identities apart per issuer', async () => {
    const dave = await user('dave@example.com');
    await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'same', email: 'dave@example.com', emailVerified: true });
    expect(await linkedUserId(t.db, 'https://other.example.com', 'same')).toBeNull();
    expect(await linkedUserId(t.db, ISSUER, 'same')).toBe(dave.id);
  });
});
