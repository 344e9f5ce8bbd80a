import { expect, signIn, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

interface MemberRow {
  userId: string;
  email: string;
  role: string;
}

test('an admin changes a member role', async ({ page, request, demoTeam }) => {
  const email = `${unique('member')}@example.test`;
  await trpcMutation(request, 'teams.addMember', stack.bootstrapToken, {
    teamId: demoTeam.id,
    email,
    role: 'viewer',
    password: 'member-password-1',
  });

  await page.goto('/t/demo/settings/members');
  const row = page.locator(`[data-testid="member-row"][data-email="${email}"]`);
  await expect(row.getByTestId('member-role')).toHaveValue('viewer');
  await row.getByTestId('member-role').selectOption('operator');
  await expect(row.getByTestId('member-role')).toHaveValue('operator');
  await expect(page.getByTestId('members-error')).toHaveCount(0);

  const members = await trpcQuery<MemberRow[]>(request, 'teams.members', stack.bootstrapToken, { teamId: demoTeam.id });
  expect(members.find((m) => m.email === email)?.role).toBe('operator');
});

test('an admin adds a new member with an initial password, who can sign in read-only', async ({ page, browser }) => {
  const email = `${unique('added')}@example.test`;
  await page.goto('/t/demo/settings/members');
  await page.getByTestId('member-add-email').fill(email);
  await page.getByTestId('member-add-role').selectOption('viewer');
  await page.getByTestId('member-add-password').fill('viewer-password-1');
  await page.getByTestId('member-add-password').press('Enter');
  await expect(page.getByTestId('member-add-notice')).toContainText(`Created ${email}`);
  await expect(page.locator(`[data-testid="member-row"][data-email="${email}"]`)).toBeVisible();

  // Adding the same person twice is refused with the API's message, inline.
  await page.getByTestId('member-add-email').fill(email);
  await page.getByTestId('member-add-submit').click();
  await expect(page.getByTestId('member-add-error')).toContainText('already a member');

  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await signIn(viewer, email, 'viewer-password-1');
  await viewer.goto('/t/demo/settings/members');
  await expect(viewer.getByTestId('member-row').first()).toBeVisible();
  await expect(viewer.getByTestId('member-role')).toHaveCount(0);
  await expect(viewer.getByTestId('member-add-form')).toHaveCount(0);
  await viewer.goto('/t/demo/settings/tokens');
  await expect(viewer.getByTestId('tokens-viewer-note')).toBeVisible();
  await expect(viewer.getByTestId('token-create-form')).toHaveCount(0);
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
