import { expect, signIn, test } from './support/fixtures';
import { inviteAndSignUp, type Invited } from './support/invitations';
import { stack, unique } from './support/stack';
import { trpcQuery } from './support/trpc-api';

interface MemberRow {
  userId: string;
  email: string;
  role: string;
}

test('an admin changes a member role', async ({ page, request, demoTeam }) => {
  const email = `${unique('member')}@example.test`;
  await inviteAndSignUp(request, demoTeam.id, email, 'viewer', 'member-password-1');

  await page.goto('/t/demo/settings/members');
  const row = page.locator(`[data-testid="member-row"][data-email="${email}"]`);
  await expect(row.getByTestId('member-role')).toHaveValue('viewer');
  await row.getByTestId('member-role').selectOption('operator');
  await expect(row.getByTestId('member-role')).toHaveValue('operator');
  await expect(page.getByTestId('members-error')).toHaveCount(0);

  const members = await trpcQuery<MemberRow[]>(request, 'teams.members', stack.bootstrapToken, { teamId: demoTeam.id });
  expect(members.find((m) => m.email === email)?.role).toBe('operator');
});

test('an admin invites a new address; the invitee signs up with the link, joins read-only, and the admin sees it accepted', async ({ page, browser }) => {
  const email = `${unique('invited')}@example.test`;
  await page.goto('/t/demo/settings/members');
  await page.getByTestId('member-invite-email').fill(email);
  await page.getByTestId('member-invite-role').selectOption('viewer');
  await page.getByTestId('member-invite-submit').click();
  await expect(page.getByTestId('member-invite-notice')).toContainText(`Invited ${email} as viewer`);
  const link = (await page.getByTestId('member-invite-link').textContent())!.trim();
  expect(link).toMatch(/\/invite\/llpi_[A-Za-z0-9_-]+$/);
  const invitation = page.locator(`[data-testid="invitation-row"][data-email="${email}"]`);
  await expect(invitation).toHaveAttribute('data-status', 'pending');
  // Nobody joins by being invited.
  await expect(page.locator(`[data-testid="member-row"][data-email="${email}"]`)).toHaveCount(0);

  // A current member cannot be invited again: the API's message, inline.
  await page.getByTestId('member-invite-email').fill('admin@looplane.local');
  await page.getByTestId('member-invite-submit').click();
  await expect(page.getByTestId('member-invite-error')).toContainText('already a member');

  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByTestId('invite-summary')).toContainText(email);
  await expect(invitee.getByTestId('invite-summary')).toContainText('viewer');
  await invitee.getByTestId('invite-password').fill('viewer-password-1');
  await invitee.getByTestId('invite-signup-submit').click();
  await expect(invitee).toHaveURL(/\/t\/demo$/);
  await invitee.goto('/t/demo/settings/members');
  await expect(invitee.locator(`[data-testid="member-row"][data-email="${email}"]`)).toBeVisible();
  await expect(invitee.getByTestId('member-role')).toHaveCount(0);
  await expect(invitee.getByTestId('member-invite-form')).toHaveCount(0);
  await expect(invitee.getByTestId('invitation-row')).toHaveCount(0);
  await invitee.goto('/t/demo/settings/tokens');
  await expect(invitee.getByTestId('tokens-viewer-note')).toBeVisible();
  // The link works once.
  await invitee.context().clearCookies();
  await invitee.goto(link);
  await expect(invitee.getByTestId('invite-error')).toContainText('No such invitation');
  await context.close();

  await page.reload();
  await expect(invitation).toHaveAttribute('data-status', 'accepted');
  await expect(page.locator(`[data-testid="member-row"][data-email="${email}"]`)).toBeVisible();
});

test('a signed-in person sees invitations in a banner: accept opens the new team, decline ends the other; revoked ones vanish', async ({
  page,
  browser,
  request,
  demoTeam,
}) => {
  const email = `${unique('banner')}@example.test`;
  const password = 'banner-password-1';
  await inviteAndSignUp(request, demoTeam.id, email, 'viewer', password);
  // Two more teams of the admin's (made in the admin's session), each inviting that person.
  const slugs: Record<string, string> = {};
  for (const name of ['accepting', 'declining', 'revoking']) {
    const slug = unique(`e2e-${name}`);
    const created = await page.request.post('/api/trpc/teams.create', { data: { json: { name: `Team ${name}`, slug } } });
    expect(created.status(), await created.text()).toBe(200);
    const teamId = ((await created.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
    const invite = await page.request.post('/api/trpc/teams.invite', { data: { json: { teamId, email, role: 'operator' } } });
    expect(invite.status(), await invite.text()).toBe(200);
    slugs[name] = slug;
    if (name === 'revoking') {
      const { invitation } = ((await invite.json()) as { result: { data: { json: Invited } } }).result.data.json;
      const revoked = await page.request.post('/api/trpc/teams.revokeInvitation', { data: { json: { teamId, invitationId: invitation.id } } });
      expect(revoked.status(), await revoked.text()).toBe(200);
    }
  }

  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const person = await context.newPage();
  await signIn(person, email, password);
  const banner = person.getByTestId('invitations-banner');
  await expect(banner.getByTestId('invitation-item')).toHaveCount(2);
  await expect(banner.locator(`[data-team="${slugs.revoking}"]`)).toHaveCount(0);
  await banner.locator(`[data-team="${slugs.declining}"]`).getByTestId('invitation-decline').click();
  await expect(banner.getByTestId('invitation-item')).toHaveCount(1);
  await banner.locator(`[data-team="${slugs.accepting}"]`).getByTestId('invitation-accept').click();
  await expect(person).toHaveURL(new RegExp(`/t/${slugs.accepting}$`));
  await expect(person.getByTestId('invitations-banner')).toHaveCount(0);
  const me = await person.request.get('/api/trpc/me');
  const teams = ((await me.json()) as { result: { data: { json: { teams: Array<{ slug: string; role: string }> } } } }).result.data.json.teams;
  expect(teams.map((t) => `${t.slug}:${t.role}`).sort()).toEqual([`${slugs.accepting}:operator`, 'demo:viewer'].sort());
  await context.close();
});

test('the last admin cannot be demoted; the reason is shown inline', async ({ page, request, demoTeam }) => {
  const members = await trpcQuery<MemberRow[]>(request, 'teams.members', stack.bootstrapToken, { teamId: demoTeam.id });
  // Guard: with a second admin the demotion would succeed and break every later test.
  expect(members.filter((m) => m.role === 'admin').map((m) => m.email)).toEqual(['admin@looplane.local']);
  await page.goto('/t/demo/settings/members');
  const row = page.locator(`[data-testid="member-row"][data-email="admin@looplane.local"]`);
  await row.getByTestId('member-role').selectOption('viewer');
  await expect(page.getByTestId('members-error')).toContainText('at least one admin');
  await expect(row.getByTestId('member-role')).toHaveValue('admin');
});
