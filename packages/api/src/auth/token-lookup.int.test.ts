import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { hashApiToken } from '@looplane/db';
import type { ApiDeps } from '../context';
import { callerAs, createTeamFixture, createUser, issueToken, type TeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';
import { TokenLookup } from './token-lookup';
import { tokenReadFor, type TokenRead } from './token-read';

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

/** The real statement, with every call recorded. */
function countingRead(): { read: TokenRead; calls: string[][] } {
  const real = tokenReadFor(db.db);
  const calls: string[][] = [];
  return {
    calls,
    read: (hashes) => {
      calls.push([...hashes]);
      return real(hashes);
    },
  };
}

/** A member of the team (own user, so role changes here touch nobody else) with a token of `role`. */
async function memberWithToken(memberRole: 'operator' | 'admin', tokenRole: 'operator' | 'viewer' | 'admin') {
  const user = await createUser(db.db, 'holder');
  await db.db.membership.create({ data: { teamId: fx.teamId, userId: user.id, role: memberRole } });
  const token = await issueToken(db.db, fx.teamId, user.id, tokenRole);
  return { user, token };
}

describe('token lookup: coalescing', () => {
  it('concurrent lookups become one statement; the same token is read once and shared', async () => {
    const { read, calls } = countingRead();
    const lookup = new TokenLookup(db.db, { read });
    const a = await memberWithToken('operator', 'operator');
    const b = await memberWithToken('admin', 'viewer');
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => lookup.find(hashApiToken(a.token.secret))),
      lookup.find(hashApiToken(b.token.secret)),
      lookup.find(hashApiToken('llp_not-a-token')),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(3);
    for (const row of results.slice(0, 20)) expect(row).toMatchObject({ id: a.token.id, tokenRole: 'operator', memberRole: 'operator', revoked: false });
    expect(results[20]).toMatchObject({ id: b.token.id, tokenRole: 'viewer', memberRole: 'admin' });
    expect(results[21]).toBeNull();
  });

  it('a lookup asked while a read is in flight waits for a read of its own: a revocation committed in between is seen', async () => {
    const real = tokenReadFor(db.db);
    const { user, token } = await memberWithToken('operator', 'operator');
    // The first read takes its snapshot, then is held until the revocation has committed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let snapshotTaken!: () => void;
    const firstReadDone = new Promise<void>((resolve) => (snapshotTaken = resolve));
    let reads = 0;
    const lookup = new TokenLookup(db.db, {
      read: async (hashes) => {
        const rows = await real(hashes);
        if (++reads === 1) {
          snapshotTaken();
          await held;
        }
        return rows;
      },
    });
    const first = lookup.find(hashApiToken(token.secret));
    await firstReadDone;
    const owner = await callerAs(deps, { userId: user.id });
    await owner.tokens.revoke({ teamId: fx.teamId, tokenId: token.id });
    const second = await lookup.find(hashApiToken(token.secret));
    expect(second).toMatchObject({ id: token.id, revoked: true });
    release();
    // The first lookup was asked before the revocation, so its older answer is correct for it.
    expect(await first).toMatchObject({ id: token.id, revoked: false });
    expect(reads).toBe(2);
  });

  it('records lastUsedAt off the request path, once for a burst', async () => {
    const { token } = await memberWithToken('operator', 'operator');
    const lookup = new TokenLookup(db.db);
    await Promise.all(Array.from({ length: 10 }, () => lookup.find(hashApiToken(token.secret))));
    await vi.waitFor(async () => {
      expect((await db.db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt).not.toBeNull();
    });
  });
});

describe('token authentication: changes apply to the very next request', () => {
  it('tokens.revoke: the next request with the token is UNAUTHORIZED, concurrent ones included', async () => {
    const { user, token } = await memberWithToken('operator', 'operator');
    const before = await Promise.all(Array.from({ length: 8 }, () => callerAs(deps, { bearer: token.secret })));
    await Promise.all(before.map((api) => expect(api.tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array)));
    await (await callerAs(deps, { userId: user.id })).tokens.revoke({ teamId: fx.teamId, tokenId: token.id });
    const after = await Promise.all(Array.from({ length: 8 }, () => callerAs(deps, { bearer: token.secret })));
    await Promise.all(after.map((api) => expect(api.tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' })));
  });

  it('teams.setRole: a demoted creator caps the token on the next request', async () => {
    const { user, token } = await memberWithToken('operator', 'operator');
    const api = await callerAs(deps, { bearer: token.secret });
    await expect(api.tokens.create({ teamId: fx.teamId, name: 'ok', role: 'viewer' })).resolves.toMatchObject({ role: 'viewer' });
    const admin = await callerAs(deps, { userId: fx.members.admin.id });
    await admin.teams.setRole({ teamId: fx.teamId, userId: user.id, role: 'viewer' });
    const next = await callerAs(deps, { bearer: token.secret });
    await expect(next.tokens.create({ teamId: fx.teamId, name: 'no', role: 'viewer' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(next.tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
  });

  it('teams.removeMember revokes the creator’s tokens: UNAUTHORIZED on the next request', async () => {
    const { user, token } = await memberWithToken('operator', 'operator');
    await expect((await callerAs(deps, { bearer: token.secret })).tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
    const admin = await callerAs(deps, { userId: fx.members.admin.id });
    await admin.teams.removeMember({ teamId: fx.teamId, userId: user.id });
    await expect((await callerAs(deps, { bearer: token.secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a token whose creator has no membership (even if the token is not revoked) is FORBIDDEN on the next request', async () => {
    const { user, token } = await memberWithToken('operator', 'operator');
    await expect((await callerAs(deps, { bearer: token.secret })).tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
    await db.db.membership.delete({ where: { teamId_userId: { teamId: fx.teamId, userId: user.id } } });
    await expect((await callerAs(deps, { bearer: token.secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('an expired token or a disabled creator is UNAUTHORIZED', async () => {
    const expired = await memberWithToken('operator', 'operator');
    await db.db.apiToken.update({ where: { id: expired.token.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect((await callerAs(deps, { bearer: expired.token.secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const disabled = await memberWithToken('operator', 'operator');
    await db.db.user.update({ where: { id: disabled.user.id }, data: { disabledAt: new Date() } });
    await expect((await callerAs(deps, { bearer: disabled.token.secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

/**
 * Tokens as principals, beyond the authorization matrix's role × procedure table: what a token may
 * do with other tokens follows its own role, and a token made with a token never outlives it.
 */
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
    await expect(api.tokens.revoke({ teamId: fx.teamId, tokenId: adminToken.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/admin role; your role is operator/),
    });
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
    const grandchild = await (await callerAs(deps, { bearer: child.token })).tokens.create({
      teamId: fx.teamId,
      name: 'deeper',
      role: 'viewer',
      expiresInDays: 30,
    });
    expect(grandchild.expiresAt!.getTime()).toBeLessThanOrEqual(parent.expiresAt!.getTime());
    await expect((await callerAs(deps, { bearer: grandchild.token })).tokens.list({ teamId: fx.teamId })).resolves.toBeInstanceOf(Array);
    // The admin revokes the parent: every token made through it stops working at once.
    await asAdmin.tokens.revoke({ teamId: fx.teamId, tokenId: parent.id });
    for (const secret of [parent.token, child.token, grandchild.token]) {
      await expect((await callerAs(deps, { bearer: secret })).tokens.list({ teamId: fx.teamId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    const audit = await db.db.auditLog.findFirst({ where: { teamId: fx.teamId, action: 'token.revoked', targetId: parent.id } });
    expect((audit!.data as { alsoRevoked?: string[] }).alsoRevoked?.sort()).toEqual([child.id, grandchild.id].sort());
  });
});
