import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { handleTrpcRequest } from '../http';
import { createUser, issueToken, TEST_PASSWORD } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { authenticateCredentials } from './credentials';
import { resolvePrincipal, type SessionClaims } from './principal';
import { endSessionsOnSignOut, sessionClaimsFor } from './session-version';

const tb = apiTestbed();
const ORIGIN = 'http://looplane.test';

/** A request as the dashboard sends it with a session cookie whose JWT says `session`. */
function call(session: SessionClaims | null, path: string, input?: unknown, headers: Record<string, string> = {}) {
  const body = input === undefined ? undefined : JSON.stringify(superjson.serialize(input));
  const request = body
    ? new Request(`${ORIGIN}/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers },
        body,
      })
    : new Request(`${ORIGIN}/api/trpc/${path}`, { headers });
  return handleTrpcRequest(request, { deps: tb.deps, endpoint: '/api/trpc', session, ip: '192.0.2.5' });
}

async function message(response: Response): Promise<string> {
  const body = (await response.json()) as { error?: { json?: { message?: string } } };
  return body.error?.json?.message ?? '';
}

/** A fresh user in the team (so ending their sessions touches nobody else) and the claims of a cookie signed in now. */
async function signedInMember(role: 'viewer' | 'operator' = 'viewer') {
  const user = await createUser(tb.db, 'session');
  await tb.db.membership.create({ data: { teamId: tb.fx.teamId, userId: user.id, role } });
  const claims = (await sessionClaimsFor(tb.db, user.id))!;
  return { user, claims };
}

describe('server-side session versions', () => {
  it('a captured cookie stops working once its user signs out, and replaying it to sign-out ends nothing', async () => {
    const { user, claims } = await signedInMember();
    expect((await call(claims, 'me')).status).toBe(200);
    expect(await endSessionsOnSignOut(tb.db, claims)).toBe(true);
    expect((await call(claims, 'me')).status).toBe(401);
    expect(await resolvePrincipal(tb.db, { authorization: null, session: claims })).toBeNull();

    // Signing in again gives a session of the new version, which an old cookie's sign-out does not end.
    const again = (await sessionClaimsFor(tb.db, user.id))!;
    expect(again.sessionVersion).toBe(claims.sessionVersion + 1);
    expect(await endSessionsOnSignOut(tb.db, claims)).toBe(false);
    expect((await call(again, 'me')).status).toBe(200);
  });

  it('a password change ends every session (this one too) and leaves an audit row in each of the user’s teams', async () => {
    const { user, claims } = await signedInMember('operator');
    await tb.db.membership.create({ data: { teamId: tb.fx.otherTeamId, userId: user.id, role: 'viewer' } });
    const otherDevice = { ...claims };
    const response = await call(claims, 'account.changePassword', { currentPassword: TEST_PASSWORD, newPassword: 'a fresh long passphrase' });
    expect(response.status).toBe(200);
    expect((await call(claims, 'me')).status).toBe(401);
    expect((await call(otherDevice, 'teams.list')).status).toBe(401);
    expect(await authenticateCredentials(tb.db, user.email, TEST_PASSWORD)).toBeNull();
    expect(await authenticateCredentials(tb.db, user.email, 'a fresh long passphrase')).toMatchObject({
      id: user.id,
      sessionVersion: claims.sessionVersion + 1,
    });
    const rows = await tb.db.auditLog.findMany({ where: { action: 'account.password_changed', targetId: user.id } });
    expect(rows.map((r) => r.teamId).sort()).toEqual([tb.fx.teamId, tb.fx.otherTeamId].sort());
    expect(rows.every((r) => r.actorType === 'user' && r.actorId === user.id && r.ip === '192.0.2.5')).toBe(true);
    expect(JSON.stringify(rows.map((r) => r.data))).not.toContain('passphrase');
  });

  it('a wrong current password, a weak new one or an API token change nothing', async () => {
    const { user, claims } = await signedInMember('operator');
    const before = await tb.db.user.findUniqueOrThrow({ where: { id: user.id } });
    const wrong = await call(claims, 'account.changePassword', { currentPassword: 'not-the-password', newPassword: 'a fresh long passphrase' });
    expect(wrong.status).toBe(403);
    expect(await message(wrong)).toBe('The current password is wrong');
    const weak = await call(claims, 'account.changePassword', { currentPassword: TEST_PASSWORD, newPassword: 'password123' });
    expect(weak.status).toBe(400);
    expect(await message(weak)).toContain('newPassword');
    const token = await issueToken(tb.db, tb.fx.teamId, user.id, 'operator');
    const byToken = await call(
      null,
      'account.changePassword',
      { currentPassword: TEST_PASSWORD, newPassword: 'a fresh long passphrase' },
      { authorization: `Bearer ${token.secret}` },
    );
    expect(byToken.status).toBe(403);
    const after = await tb.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect({ hash: after.passwordHash, version: after.sessionVersion }).toEqual({ hash: before.passwordHash, version: before.sessionVersion });
    expect(await tb.db.auditLog.count({ where: { action: 'account.password_changed', targetId: user.id } })).toBe(0);
    expect((await call(claims, 'me')).status).toBe(200);
  });

  it('removal from a team ends the removed member’s sessions', async () => {
    const { user, claims } = await signedInMember();
    const admin = (await sessionClaimsFor(tb.db, tb.fx.members.admin.id))!;
    const removed = await call(admin, 'teams.removeMember', { teamId: tb.fx.teamId, userId: user.id });
    expect(removed.status).toBe(200);
    expect((await call(claims, 'me')).status).toBe(401);
    expect((await call(admin, 'me')).status).toBe(200);
  });

  it('a cookie of another version than the current one never counts, nor one of a user who is gone', async () => {
    const { claims } = await signedInMember();
    expect((await call({ ...claims, sessionVersion: claims.sessionVersion + 1 }, 'me')).status).toBe(401);
    expect((await call({ userId: 'no-such-user', sessionVersion: 0 }, 'me')).status).toBe(401);
  });
});
