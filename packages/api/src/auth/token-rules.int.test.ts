import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps } from '../context';
import { callerAs, createTeamFixture, createUser, issueToken, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';

/**
 * Tokens as principals, beyond the authorization matrix's role × procedure table: what a token
 * may do with other tokens follows its own role, and a token made with a token never outlives it.
 */
let db: TestDatabase;
let live: TestLive;
let deps: ApiDeps;
let fx: TeamFixture;

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  deps = { db: db.db, dispatch: live.dispatch };
  fx = await createTeamFixture(db.db);
});

afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('tokens as principals', () => {
  it('a token’s role is capped by its creator’s current role', async () => {
    const creator = await createUser(db.db, 'demoted');
    await db.db.membership.create({ data: { teamId: fx.teamId, userId: creator.id, role: 'admin' } });
    const token = await issueToken(db.db, fx.teamId, creator.id, 'admin');
    await db.db.membership.update({ where: { teamId_userId: { teamId: fx.teamId, userId: creator.id } }, data: { role: 'viewer' } });
    const api = await callerAs(deps, { bearer: token.secret });
    await expect(api.tokens.create({ teamId: fx.teamId, name: 'x', role: 'viewer' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
  it('what a token may do with tokens follows the token’s role, not its creator’s', async () => {
    const admin = fx.members.admin.id;
    const adminToken = await issueToken(db.db, fx.teamId, admin, 'admin');
    const viewerToken = await issueToken(db.db, fx.teamId, admin, 'viewer');
    const operator = await issueToken(db.db, fx.teamId, admin, 'operator');
    const api = await callerAs(deps, { bearer: operator.secret });
    const listed = (await api.tokens.list({ teamId: fx.teamId })).map((t) => t.id);
    expect(listed).toContain(viewerToken.id);
    expect(listed).toContain(operator.id);
    expect(listed).not.toContain(adminToken.id);
    expect((await api.tokens.list({ teamId: fx.teamId })).every((t) => t.role === 'viewer' || t.role === 'operator')).toBe(true);
    await expect(api.tokens.revoke({ teamId: fx.teamId, tokenId: adminToken.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/admin role; your role is operator/) });
    expect((await db.db.apiToken.findUniqueOrThrow({ where: { id: adminToken.id } })).revokedAt).toBeNull();
    await expect(api.tokens.revoke({ teamId: fx.teamId, tokenId: viewerToken.id })).resolves.toMatchObject({ id: viewerToken.id });
    // The admin user itself still sees and revokes everything.
    const asAdmin = await callerAs(deps, { userId: admin });
    expect((await asAdmin.tokens.list({ teamId: fx.teamId })).map((t) => t.id)).toContain(adminToken.id);
  });

  it('a token made with a token expires no later than its parent and dies with it', async () => {
    const asAdmin = await callerAs(deps, { userId: fx.members.admin.id });
    const parent = await asAdmin.tokens.create({ teamId: fx.teamId, name: 'one day', role: 'operator', expiresInDays: 1 });
    const viaParent = await callerAs(deps, { bearer: parent.token });
    const child = await viaParent.tokens.create({ teamId: fx.teamId, name: 'forever?', role: 'operator' });
    expect(child.expiresAt?.getTime()).toBe(parent.expiresAt?.getTime());
    const grandchild = await (await callerAs(deps, { bearer: child.token })).tokens.create({ teamId: fx.teamId, name: 'deeper', role: 'viewer', expiresInDays: 30 });
    expect(grandchild.expiresAt!.getTime()).toBeLessThanOrEqual(parent.expiresAt!.getTime());
    await expect((await callerAs(deps, { bearer: grandchild.token })).tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
    // The admin revokes the parent: every token made through it stops working at once.
    await asAdmin.tokens.revoke({ teamId: fx.teamId, tokenId: parent.id });
    for (const secret of [parent.token, child.token, grandchild.token]) {
      await expect((await callerAs(deps, { bearer: secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const audit = await db.db.auditLog.findFirst({ where: { teamId: fx.teamId, action: 'token.revoked', targetId: parent.id } });
    expect((audit?.data as { alsoRevoked?: string[] }).alsoRevoked?.sort()).toEqual([child.id, grandchild.id].sort());
  });

});
