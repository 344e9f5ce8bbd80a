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

  it('signs up a verified email that a team invited (pending, unexpired), and nobody else', async () => {
    const team = await t.db.team.create({ data: { slug: 'oidc-inviting', name: 'Inviting' } });
    const invite = (email: string, expiresAt: Date) =>
      t.db.teamInvitation.create({ data: { teamId: team.id, email, role: 'viewer', codeHash: `hash-${email}`, expiresAt } });
    await invite('erin@example.com', new Date(Date.now() + 60_000));
    await invite('frank@example.com', new Date(Date.now() - 60_000));
    const erin = await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'sub-erin', email: 'Erin@Example.com', emailVerified: true });
    expect(erin).toBe((await t.db.user.findUniqueOrThrow({ where: { email: 'erin@example.com' } })).id);
    // Joining still takes the invitee's acceptance.
    expect(await t.db.membership.count({ where: { userId: erin! } })).toBe(0);
    expect(await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'sub-erin-unverified', email: 'erin2@example.com', emailVerified: false })).toBeNull();
    expect(await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'sub-frank', email: 'frank@example.com', emailVerified: true })).toBeNull();
    expect(await t.db.user.count({ where: { email: 'frank@example.com' } })).toBe(0);
  });

  it('keeps identities apart per issuer', async () => {
    const dave = await user('dave@example.com');
    await linkOidcIdentity(t.db, { provider: ISSUER, subject: 'same', email: 'dave@example.com', emailVerified: true });
    expect(await linkedUserId(t.db, 'https://other.example.com', 'same')).toBeNull();
    expect(await linkedUserId(t.db, ISSUER, 'same')).toBe(dave.id);
  });
});
