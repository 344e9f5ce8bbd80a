import { describe, expect, it } from 'vitest';
import { issueToken } from '../testing/fixtures';
import { problemOf } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { tokenCreated, tokenList, tokenRevoked } from './schemas/admin.schemas';

/**
 * The token rules over real HTTP with Bearer tokens (`/api/v1/tokens`): what a token may list and
 * revoke follows the token's own role, not its creator's; a token made with a token expires no
 * later than its parent and dies with it. The same rules through tRPC are in
 * auth/token-lookup.int.test.ts ("tokens as principals").
 */
const rest = restTestbed();

describe('/api/v1/tokens: token ownership follows the token’s role', () => {
  it('an operator token of an admin neither sees nor revokes that admin’s admin tokens', async () => {
    const { db, fx } = rest.tb;
    const admin = fx.members.admin.id;
    const adminToken = await issueToken(db, fx.teamId, admin, 'admin');
    const viewerToken = await issueToken(db, fx.teamId, admin, 'viewer');
    const operator = await issueToken(db, fx.teamId, admin, 'operator');
    const asOperator = rest.client(operator.secret);

    const listed = await asOperator.ok('listTokens', tokenList);
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining([viewerToken.id, operator.id]));
    expect(listed.map((t) => t.id)).not.toContain(adminToken.id);
    expect(listed.every((t) => t.role === 'viewer' || t.role === 'operator')).toBe(true);

    const refused = problemOf(await asOperator.call('revokeToken', { params: { tokenId: adminToken.id } }), 403, 'FORBIDDEN');
    expect(refused.detail).toMatch(/admin role; your role is operator/);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: adminToken.id } })).revokedAt).toBeNull();
    // The admin token still works; what the operator token may revoke, it does.
    expect((await rest.client(adminToken.secret).call('listTokens')).status).toBe(200);
    await asOperator.ok('revokeToken', tokenRevoked, { params: { tokenId: viewerToken.id } });
    // The admin user's own admin token sees them all.
    expect((await rest.client(adminToken.secret).ok('listTokens', tokenList)).map((t) => t.id)).toContain(operator.id);
  });
});

describe('/api/v1/tokens: child tokens', () => {
  it('a token made with a 1-day token expires no later than it, and is revoked with it (401 on the next request)', async () => {
    const asAdmin = rest.as('admin');
    const parent = await asAdmin.ok('createToken', tokenCreated, { body: { name: 'one day', role: 'operator', expiresInDays: 1 } });
    expect(parent.expiresAt).not.toBeNull();
    // Asked for no expiry, or a later one: capped at the parent's.
    const child = await rest.client(parent.token).ok('createToken', tokenCreated, { body: { name: 'forever?', role: 'operator' } });
    expect(child.expiresAt).toBe(parent.expiresAt);
    const grandchild = await rest.client(child.token).ok('createToken', tokenCreated, { body: { name: 'deeper', role: 'viewer', expiresInDays: 30 } });
    expect(new Date(grandchild.expiresAt!).getTime()).toBeLessThanOrEqual(new Date(parent.expiresAt!).getTime());
    for (const secret of [parent.token, child.token, grandchild.token]) expect((await rest.client(secret).call('listTokens')).status).toBe(200);

    await asAdmin.ok('revokeToken', tokenRevoked, { params: { tokenId: parent.id } });
    for (const secret of [parent.token, child.token, grandchild.token]) problemOf(await rest.client(secret).call('listTokens'), 401);
    const audit = await rest.tb.db.auditLog.findFirst({ where: { teamId: rest.tb.fx.teamId, action: 'token.revoked', targetId: parent.id } });
    expect((audit!.data as { alsoRevoked?: string[] }).alsoRevoked?.sort()).toEqual([child.id, grandchild.id].sort());
  });
});
