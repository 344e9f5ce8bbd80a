import { expect, signIn, test } from './support/fixtures';
import { ADMIN_EMAIL, stack } from './support/stack';

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a team page redirects to sign-in and back after signing in', async ({ page }) => {
    await page.goto('/t/demo/settings/members');
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await page.getByTestId('signin-email').fill(ADMIN_EMAIL);
    await page.getByTestId('signin-password').fill(stack.adminPassword);
    await page.getByTestId('signin-submit').click();
    await expect(page).toHaveURL(/\/t\/demo$/);
  });

  test('a wrong password shows an error and stays on sign-in', async ({ page }) => {
    await page.goto('/signin');
    await page.getByTestId('signin-email').fill(ADMIN_EMAIL);
    await page.getByTestId('signin-password').fill('definitely-not-the-password');
    await page.getByTestId('signin-password').press('Enter');
    await expect(page.getByTestId('signin-error')).toHaveText('Wrong email or password.');
    await expect(page).toHaveURL(/\/signin/);
  });

  test('the API refuses anonymous calls with a clear 401', async ({ request }) => {
    const response = await request.get('/api/trpc/me');
    expect(response.status()).toBe(401);
    expect(JSON.stringify(await response.json())).toContain('Sign in or send a valid API token');
  });
});

test('sign-in lands on the demo team shell', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, ADMIN_EMAIL, stack.adminPassword);
  await expect(page).toHaveURL(/\/t\/demo$/);
  await expect(page.getByTestId('team-switcher')).toContainText('demo');
  await expect(page.getByTestId('team-switcher')).toContainText('admin');
  for (const id of ['overview', 'runs', 'agents', 'approvals', 'graphs', 'policies', 'endpoints', 'audit', 'settings']) {
    await expect(page.getByTestId(`nav-${id}`)).toBeVisible();
  }
  await expect(page.getByTestId('nav-approvals')).toHaveAttribute('href', '/t/demo/approvals');
  await expect(page.getByTestId('nav-runs')).toHaveAttribute('href', '/t/demo/runs');
  await expect(page.getByTestId('overview-role')).toHaveText('admin');

  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/t/demo');
  await expect(page).toHaveURL(/\/signin/);
  await context.close();
});
