import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { authenticateCredentials } from '../auth/credentials';
import { handleTrpcRequest } from '../http';
import { callerAs, createUser, sessionOf } from '../testing/fixtures';
import { createInvitation } from '../testing/invitations';
import { apiTestbed } from '../testing/testbed';

/**
 * Team membership by invitation (#14): an admin invites an email with a role, and only the
 * invitee's acceptance makes a member. `teams.invite` answers alike whether or not the address has
 * an account; an address without one signs up with the link's code.
 */
const tb = apiTestbed();
let n = 0;
const fresh = (label: string) => `${label}-${Date.now()}-${n++}@example.test`;

/** `teams.invite` over HTTP, as the team's admin (session cookie): status and JSON body. */
async function inviteOverHttp(email: string) {
  const request = new Request('http://localhost/api/trpc/teams.invite', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(superjson.serialize({ teamId: tb.fx.teamId, email, role: 'operator' })),
  });
  const response = await handleTrpcRequest(request, { deps: tb.deps, endpoint: '/api/trpc', session: sessionOf(tb.fx.members.admin.id), ip: '127.0.0.1' });
  return { status: response.status, body: (await response.json()) as { result: { data: { json: Record<string, unknown> } } } };
}

/** The shape of a JSON value: keys and value types, never the values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort()
        .map(([key, v]) => [key, shape(v)]),
    );
  return typeof value;
}

const auditOf = (action: string, targetId: string) => tb.db.auditLog.findFirst({ where: { action, targetId } });

describe('teams.invite', () => {
  it('answers the same, over HTTP, whether or not the address has an account, and adds nobody', async () => {
    const existing = await createUser(tb.db, 'existing');
    const withAccount = await inviteOverHttp(existing.email);
    const withoutAccount = await inviteOverHttp(fresh('nobody'));
    expect(withAccount.status).toBe(200);
    expect(withoutAccount.status).toBe(200);
    expect(shape(withAccount.body)).toEqual(shape(withoutAccount.body));
    expect(Object.keys(withAccount.body.result.data.json).sort()).toEqual(['code', 'invitation', 'path']);
    expect(await tb.db.membership.count({ where: { teamId: tb.fx.teamId, userId: existing.id } })).toBe(0);
    const invitation = withAccount.body.result.data.json.invitation as { id: string };
    expect((await auditOf('invitation.created', invitation.id))?.data).toMatchObject({ email: existing.email, role: 'operator' });
  });

  it('refuses a current member (whom the admins see anyway); inviting an address again replaces its pending invitation', async () => {
    const admin = await tb.as('admin');
    await expect(admin.teams.invite({ teamId: tb.fx.teamId, email: tb.fx.members.viewer.email, role: 'admin' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('already a member'),
    });
    const email = fresh('twice');
    const first = await admin.teams.invite({ teamId: tb.fx.teamId, email, role: 'viewer' });
    const second = await admin.teams.invite({ teamId: tb.fx.teamId, email, role: 'approver' });
    await expect((await tb.as('viewer')).invitations.preview({ code: first.code })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await admin.invitations.preview({ code: second.code })).toMatchObject({ email, role: 'approver' });
    const listed = await admin.teams.invitations({ teamId: tb.fx.teamId });
    expect(listed.find((i) => i.id === first.invitation.id)).toMatchObject({ status: 'revoked' });
    expect(listed.find((i) => i.id === second.invitation.id)).toMatchObject({ status: 'pending', invitedBy: tb.fx.members.admin.email });
  });
});

describe('the invitee', () => {
  it('sees the invitation, accepts it and joins with the invited role; the admins see it accepted', async () => {
    const invitee = await createUser(tb.db, 'invitee');
    const { invitation } = await (await tb.as('admin')).teams.invite({ teamId: tb.fx.teamId, email: invitee.email, role: 'approver' });
    const me = await tb.asUser(invitee.id);
    const mine = await me.invitations.mine();
    expect(mine).toEqual([
      expect.objectContaining({
        id: invitation.id,
        role: 'approver',
        team: expect.objectContaining({ id: tb.fx.teamId, name: 'Team A' }),
        invitedBy: tb.fx.members.admin.email,
      }),
    ]);
    await expect(me.teams.members({ teamId: tb.fx.teamId })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    expect(await me.invitations.accept({ invitationId: invitation.id })).toMatchObject({ teamId: tb.fx.teamId, role: 'approver' });
    expect(await tb.db.membership.findUnique({ where: { teamId_userId: { teamId: tb.fx.teamId, userId: invitee.id } } })).toMatchObject({ role: 'approver' });
    expect(await me.invitations.mine()).toEqual([]);
    expect(await auditOf('invitation.accepted', invitation.id)).toMatchObject({
      actorType: 'user',
      actorId: invitee.id,
      data: { role: 'approver', userCreated: false },
    });
    const listed = await (await tb.as('admin')).teams.invitations({ teamId: tb.fx.teamId });
    expect(listed.find((i) => i.id === invitation.id)).toMatchObject({ status: 'accepted', decidedBy: invitee.email });
    await expect(me.invitations.accept({ invitationId: invitation.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('declines: no membership, an audit row', async () => {
    const invitee = await createUser(tb.db, 'decliner');
    const { invitation } = await (await tb.as('admin')).teams.invite({ teamId: tb.fx.teamId, email: invitee.email, role: 'viewer' });
    await (await tb.asUser(invitee.id)).invitations.decline({ invitationId: invitation.id });
    expect(await tb.db.membership.count({ where: { teamId: tb.fx.teamId, userId: invitee.id } })).toBe(0);
    expect(await auditOf('invitation.declined', invitation.id)).toMatchObject({ actorId: invitee.id });
  });

  it('cannot answer someone else’s invitation (not told apart from none), a revoked one or an expired one', async () => {
    const invitee = await createUser(tb.db, 'late');
    const me = await tb.asUser(invitee.id);
    const others = await createInvitation(tb.db, { teamId: tb.fx.teamId });
    await expect(me.invitations.accept({ invitationId: others.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(me.invitations.decline({ invitationId: others.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const admin = await tb.as('admin');
    const revoked = await admin.teams.invite({ teamId: tb.fx.teamId, email: invitee.email, role: 'viewer' });
    await admin.teams.revokeInvitation({ teamId: tb.fx.teamId, invitationId: revoked.invitation.id });
    expect(await auditOf('invitation.revoked', revoked.invitation.id)).toMatchObject({ actorId: tb.fx.members.admin.id });
    await expect(me.invitations.accept({ invitationId: revoked.invitation.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('revoked'),
    });
    await expect(admin.teams.revokeInvitation({ teamId: tb.fx.teamId, invitationId: revoked.invitation.id })).rejects.toMatchObject({ code: 'CONFLICT' });

    const expired = await createInvitation(tb.db, { teamId: tb.fx.teamId, email: invitee.email, expiresAt: new Date(Date.now() - 1000) });
    expect(await me.invitations.mine()).toEqual([]);
    await expect(me.invitations.accept({ invitationId: expired.id })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: expect.stringContaining('expired'),
    });
    await expect(me.invitations.signUp({ code: expired.code, password: 'long enough pw' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await admin.teams.invitations({ teamId: tb.fx.teamId })).find((i) => i.id === expired.id)).toMatchObject({ status: 'expired' });
    expect(await tb.db.membership.count({ where: { teamId: tb.fx.teamId, userId: invitee.id } })).toBe(0);
  });
});

describe('an address without an account', () => {
  it('is invited like any other; the invitee signs up with the code, joins, and can sign in; the code works once', async () => {
    const email = fresh('newcomer');
    const invited = await (await tb.as('admin')).teams.invite({ teamId: tb.fx.teamId, email, role: 'viewer' });
    expect(invited.path).toBe(`/invite/${invited.code}`);
    const signedOut = await callerAs(tb.deps, null);
    expect(await signedOut.invitations.preview({ code: invited.code })).toMatchObject({ email, role: 'viewer', team: { name: 'Team A' } });
    expect(await signedOut.invitations.signUp({ code: invited.code, password: 'newcomer password 1', name: 'New Comer' })).toMatchObject({
      email,
      teamId: tb.fx.teamId,
      role: 'viewer',
    });
    const user = await tb.db.user.findUniqueOrThrow({ where: { email } });
    expect(await tb.db.membership.findUnique({ where: { teamId_userId: { teamId: tb.fx.teamId, userId: user.id } } })).toMatchObject({ role: 'viewer' });
    expect(await authenticateCredentials(tb.db, email, 'newcomer password 1')).toMatchObject({ id: user.id });
    expect(await auditOf('invitation.accepted', invited.invitation.id)).toMatchObject({ actorId: user.id, data: { userCreated: true } });
    await expect(signedOut.invitations.signUp({ code: invited.code, password: 'another password 2' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a code cannot take over an address that has an account: refused, nothing changes', async () => {
    const existing = await createUser(tb.db, 'taken');
    const { code } = await (await tb.as('admin')).teams.invite({ teamId: tb.fx.teamId, email: existing.email, role: 'admin' });
    await expect((await callerAs(tb.deps, null)).invitations.signUp({ code, password: 'hijacker password 9' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('sign in'),
    });
    expect(await authenticateCredentials(tb.db, existing.email, 'hijacker password 9')).toBeNull();
    expect(await tb.db.membership.count({ where: { teamId: tb.fx.teamId, userId: existing.id } })).toBe(0);
  });
});
